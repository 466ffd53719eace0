// Package jsonx marshals JSON as encoding/json does, except for strings that are not valid UTF-8
// (an ID read from a file can be any bytes): encoding/json writes each invalid byte as \ufffd,
// so "q\xff" and "q\xfe" both become "q\ufffd" and two queries merge. jsonx writes each byte
// that is not part of valid UTF-8 as the lone surrogate escape \udcXX, XX the byte (Python's
// "surrogateescape", PEP 383):
//
//	"q\xff"  → "q\udcff"
//	"q\xfe"  → "q\udcfe"
//	"día"    → "día"          (valid UTF-8 is written as encoding/json writes it)
//
// The escape is lossless and never collides with a valid string (a valid string holds no lone
// surrogate): Python's json.loads(s).encode("utf-8", "surrogateescape") gives the bytes back.
// (Go's json.Unmarshal reads a lone surrogate as U+FFFD.) When every string is valid UTF-8 the
// output is byte for byte encoding/json's.
package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// Marshal is json.Marshal with invalid UTF-8 escaped losslessly (see the package doc).
func Marshal(v any) ([]byte, error) { return encode(v, "", "", true) }

// MarshalIndent is json.MarshalIndent with invalid UTF-8 escaped losslessly.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return encode(v, prefix, indent, true)
}

// Encode writes v as an Encoder with SetIndent(prefix, indent) and SetEscapeHTML(escapeHTML)
// would (a newline at the end), with invalid UTF-8 escaped losslessly.
func Encode(v any, prefix, indent string, escapeHTML bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent(prefix, indent)
	enc.SetEscapeHTML(escapeHTML)
	if !hasInvalid(reflect.ValueOf(v), 0) {
		err := enc.Encode(v)
		return b.Bytes(), err
	}
	if err := enc.Encode(transform(reflect.ValueOf(v)).Interface()); err != nil {
		return nil, err
	}
	return unmark(b.Bytes()), nil
}

func encode(v any, prefix, indent string, escapeHTML bool) ([]byte, error) {
	out, err := Encode(v, prefix, indent, escapeHTML)
	return bytes.TrimSuffix(out, []byte("\n")), err
}

// The marks: a byte b that is not valid UTF-8 becomes mark, rune(byteBase+b); a mark rune already
// in a string becomes mark, mark. Both are private use runes of plane 16 (U+10FF7F, U+10FF80 to
// U+10FFFF), and only
// strings of a value that holds invalid UTF-8 are marked.
const (
	mark     = '\U0010FF7F'
	byteBase = 0x10FF00
)

// maxDepth bounds the walk (cyclic pointers are not JSON anyway).
const maxDepth = 1000

var marshaler = reflect.TypeFor[json.Marshaler]()
var textMarshaler = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()

// hasInvalid reports whether a string reachable from v (as encoding/json walks it) is not
// valid UTF-8.
func hasInvalid(v reflect.Value, depth int) bool {
	if !v.IsValid() || depth > maxDepth {
		return false
	}
	if v.Type().Implements(marshaler) && v.Kind() != reflect.String {
		return false // its own encoding
	}
	switch v.Kind() {
	case reflect.String:
		return !utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasInvalid(v.Elem(), depth+1)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() && hasInvalid(v.Field(i), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false // []byte is base64
		}
		for i := range v.Len() {
			if hasInvalid(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if hasInvalid(it.Key(), depth+1) || hasInvalid(it.Value(), depth+1) {
				return true
			}
		}
	}
	return false
}

// transform returns a copy of v whose strings are marked (markString).
func transform(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	t := v.Type()
	if t.Implements(marshaler) && t.Kind() != reflect.String {
		return v
	}
	switch t.Kind() {
	case reflect.String:
		if t.Implements(marshaler) || t.Implements(textMarshaler) {
			return v
		}
		out := reflect.New(t).Elem()
		out.SetString(markString(v.String()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(transform(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		out.Set(transform(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				out.Field(i).Set(transform(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() || t.Elem().Kind() == reflect.Uint8 {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(transform(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(transform(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		it := v.MapRange()
		for it.Next() {
			out.SetMapIndex(transform(it.Key()), transform(it.Value()))
		}
		return out
	}
	return v
}

// markString replaces each byte of s that is not valid UTF-8 by mark and its byte rune, and each
// mark rune by two marks.
func markString(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = utf8.AppendRune(b, mark)
			b = utf8.AppendRune(b, rune(byteBase+int(s[i])))
		case r == mark:
			b = utf8.AppendRune(b, mark)
			b = utf8.AppendRune(b, mark)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// unmark turns the marks of markString in encoded JSON into \udcXX escapes and marks.
func unmark(js []byte) []byte {
	m := utf8.AppendRune(nil, mark)
	if !bytes.Contains(js, m) {
		return js
	}
	var out []byte
	for len(js) > 0 {
		i := bytes.Index(js, m)
		if i < 0 {
			out = append(out, js...)
			break
		}
		out = append(out, js[:i]...)
		js = js[i+len(m):]
		r, size := utf8.DecodeRune(js)
		js = js[size:]
		if r == mark {
			out = append(out, m...)
		} else {
			out = fmt.Appendf(out, `\udc%02x`, r-byteBase)
		}
	}
	return out
}
