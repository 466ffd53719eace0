//go:build cgo

// Package ort runs an ONNX graph with ONNX Runtime's C library, loaded at run time with dlopen
// (nothing of ONNX Runtime is needed to build or link). It is the module's only cgo package and
// calls the few functions of the OrtApi table that a BERT encoder needs: one environment,
// sessions created from the graph's bytes, and Run with two int64 inputs and one float32 output.
//
// Every call goes through the typed OrtApi struct of the vendored onnxruntime_c_api.h
// (include/, version 23, MIT; include/README.md says where it comes from), so the C compiler
// checks each signature. The table is append-only, so the 1.32.0 library the set-up installs
// serves version 23's entries at the header's offsets.
package ort

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "onnxruntime_c_api.h"

static const OrtApi* api;
static OrtEnv* env;
static OrtMemoryInfo* meminfo;

// err turns a status into a malloc'd message (NULL for success) and releases it.
static char* err(OrtStatus* s) {
	if (s == NULL) return NULL;
	const char* m = api->GetErrorMessage(s);
	char* out = strdup(m ? m : "unknown error");
	api->ReleaseStatus(s);
	return out;
}

// ort_load opens the library and creates the environment; returns an error message or NULL.
static char* ort_load(const char* path, char* version, size_t vlen) {
	void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) return strdup(dlerror());
	typedef const OrtApiBase* (*get_base_fn)(void);
	get_base_fn get_base = (get_base_fn)dlsym(h, "OrtGetApiBase");
	if (get_base == NULL) return strdup("no OrtGetApiBase in the library");
	const OrtApiBase* base = get_base();
	strncpy(version, base->GetVersionString(), vlen - 1);
	api = base->GetApi(ORT_API_VERSION);
	if (api == NULL) return strdup("the library does not serve the OrtApi version of onnxruntime_c_api.h");
	char* e = err(api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "ranklab", &env));
	if (e) return e;
	return err(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &meminfo));
}

// ort_session loads a graph from memory with threads intra-op threads (1: the calling thread
// alone) and all graph optimisations.
static char* ort_session(const void* model, size_t len, int threads, OrtSession** out) {
	OrtSessionOptions* opts;
	char* e = err(api->CreateSessionOptions(&opts));
	if (e) return e;
	if (!(e = err(api->SetIntraOpNumThreads(opts, threads))) &&
	    !(e = err(api->SetInterOpNumThreads(opts, 1))) &&
	    !(e = err(api->SetSessionGraphOptimizationLevel(opts, ORT_ENABLE_ALL))) &&
	    // Idle workers sleep instead of spinning: on a busy machine a spinning worker burns
	    // the CPU the descheduled one needs (12 % more CPU measured beside two busy loops;
	    // the same wall time on an idle machine).
	    !(e = err(api->AddSessionConfigEntry(opts, "session.intra_op.allow_spinning", "0"))))
		e = err(api->CreateSessionFromArray(env, model, len, opts, out));
	api->ReleaseSessionOptions(opts);
	return e;
}

static void ort_release_session(OrtSession* s) { api->ReleaseSession(s); }

// ort_run feeds ids and mask ([batch, tokens] int64) and copies the first output, a float32
// tensor, into out (cap floats); dims gets its shape (at most 4 dimensions), ndims their number.
// Safe to call from several threads at once on one session (OrtApi::Run is).
static char* ort_run(OrtSession* session, int64_t* ids, int64_t* mask, int64_t batch, int64_t tokens,
                     const char* in0, const char* in1, const char* out0,
                     float* out, size_t cap, int64_t* dims, size_t* ndims) {
	int64_t shape[2] = {batch, tokens};
	size_t n = (size_t)(batch * tokens) * sizeof(int64_t);
	OrtValue* inputs[2] = {NULL, NULL};
	OrtValue* output = NULL;
	OrtTensorTypeAndShapeInfo* info = NULL;
	float* data;
	char* e;
	if ((e = err(api->CreateTensorWithDataAsOrtValue(meminfo, ids, n, shape, 2, ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64, &inputs[0])))) goto done;
	if ((e = err(api->CreateTensorWithDataAsOrtValue(meminfo, mask, n, shape, 2, ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64, &inputs[1])))) goto done;
	const char* in_names[2] = {in0, in1};
	const char* out_names[1] = {out0};
	if ((e = err(api->Run(session, NULL, in_names, (const OrtValue* const*)inputs, 2, out_names, 1, &output)))) goto done;
	if ((e = err(api->GetTensorTypeAndShape(output, &info)))) goto done;
	if ((e = err(api->GetDimensionsCount(info, ndims)))) goto done;
	if (*ndims > 4) { e = strdup("output has more than 4 dimensions"); goto done; }
	if ((e = err(api->GetDimensions(info, dims, *ndims)))) goto done;
	size_t count = 1;
	for (size_t i = 0; i < *ndims; i++) count *= (size_t)dims[i];
	if (count > cap) { e = strdup("output larger than the buffer"); goto done; }
	if ((e = err(api->GetTensorMutableData(output, (void**)&data)))) goto done;
	memcpy(out, data, count * sizeof(float));
done:
	if (info) api->ReleaseTensorTypeAndShapeInfo(info);
	for (int i = 0; i < 2; i++) if (inputs[i]) api->ReleaseValue(inputs[i]);
	if (output) api->ReleaseValue(output);
	return e;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

var (
	loadOnce    sync.Once
	loadErr     error
	loadVersion string
	loadedPath  string
)

// Load opens the ONNX Runtime library at path (once per process; later calls must name the same
// library) and returns its version.
func Load(path string) (string, error) {
	loadOnce.Do(func() {
		cpath := C.CString(path)
		defer C.free(unsafe.Pointer(cpath))
		var version [64]C.char
		if e := C.ort_load(cpath, &version[0], C.size_t(len(version))); e != nil {
			loadErr = fmt.Errorf("ort: loading %s: %s", path, C.GoString(e))
			C.free(unsafe.Pointer(e))
			return
		}
		loadVersion, loadedPath = C.GoString(&version[0]), path
	})
	if loadErr == nil && path != loadedPath {
		return "", fmt.Errorf("ort: %s is loaded already; cannot load %s too", loadedPath, path)
	}
	return loadVersion, loadErr
}

// Session is a loaded graph with two int64 inputs [batch, tokens] and a float32 output. Run may
// be called from several goroutines at once.
type Session struct {
	ptr            *C.OrtSession
	in0, in1, out0 *C.char
}

// NewSession loads the graph in model (the bytes of an .onnx file; Load must have succeeded)
// with threads intra-op threads (0: ONNX Runtime's default, one per physical core; 1: each Run
// computes on its caller's thread alone) and all graph optimisations. input0 and input1 name
// the two int64 inputs, output the float32 output; name is what errors call the graph.
func NewSession(name string, model []byte, threads int, input0, input1, output string) (*Session, error) {
	if loadVersion == "" {
		return nil, errors.New("ort: NewSession before a successful Load")
	}
	if len(model) == 0 {
		return nil, fmt.Errorf("ort: loading %s: empty graph", name)
	}
	s := &Session{in0: C.CString(input0), in1: C.CString(input1), out0: C.CString(output)}
	if e := C.ort_session(unsafe.Pointer(&model[0]), C.size_t(len(model)), C.int(threads), &s.ptr); e != nil {
		defer C.free(unsafe.Pointer(e))
		s.Close()
		return nil, fmt.Errorf("ort: loading %s: %s", name, C.GoString(e))
	}
	return s, nil
}

// Run feeds ids and mask (row-major [batch, tokens]) and returns the output, row-major, and its
// shape. out is reused when it has room.
func (s *Session) Run(ids, mask []int64, batch, tokens int, out []float32, width int) ([]float32, []int64, error) {
	if len(ids) != batch*tokens || len(mask) != batch*tokens {
		panic("ort: ids and mask must hold batch*tokens values")
	}
	need := batch * tokens * width
	if cap(out) < need {
		out = make([]float32, need)
	}
	out = out[:need]
	var dims [4]C.int64_t
	var ndims C.size_t
	e := C.ort_run(s.ptr, (*C.int64_t)(unsafe.Pointer(&ids[0])), (*C.int64_t)(unsafe.Pointer(&mask[0])),
		C.int64_t(batch), C.int64_t(tokens), s.in0, s.in1, s.out0,
		(*C.float)(unsafe.Pointer(&out[0])), C.size_t(need), &dims[0], &ndims)
	if e != nil {
		defer C.free(unsafe.Pointer(e))
		return nil, nil, fmt.Errorf("ort: run: %s", C.GoString(e))
	}
	shape := make([]int64, int(ndims))
	n := 1
	for i := range shape {
		shape[i] = int64(dims[i])
		n *= int(dims[i])
	}
	return out[:n], shape, nil
}

// Close releases the session.
func (s *Session) Close() {
	if s.ptr != nil {
		C.ort_release_session(s.ptr)
		s.ptr = nil
	}
	for _, p := range []*C.char{s.in0, s.in1, s.out0} {
		C.free(unsafe.Pointer(p))
	}
	s.in0, s.in1, s.out0 = nil, nil, nil
}
