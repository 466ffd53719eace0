//go:build cgo

// Package ort runs an ONNX graph with ONNX Runtime's C library, loaded at run time with dlopen
// (nothing of ONNX Runtime is needed to build). It is the module's only cgo package and calls
// the few functions of the OrtApi table that a BERT encoder needs: one environment, sessions
// created from a file, and Run with two int64 inputs and one float32 output.
//
// The OrtApi table is an append-only array of function pointers; the indices below are those
// of onnxruntime_c_api.h (stable since API version 1; GetApi is asked for version 16, which
// every runtime from 1.16 on serves).
package ort

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void* (*get_api_fn)(uint32_t);
typedef const char* (*get_version_fn)(void);
typedef struct { get_api_fn GetApi; get_version_fn GetVersionString; } api_base;

// Indices in the OrtApi table.
enum {
	I_GetErrorMessage = 2, I_CreateEnv = 3, I_CreateSession = 7, I_Run = 9,
	I_CreateSessionOptions = 10, I_SetSessionGraphOptimizationLevel = 23,
	I_SetIntraOpNumThreads = 24, I_SetInterOpNumThreads = 25,
	I_CreateTensorWithDataAsOrtValue = 49, I_GetTensorMutableData = 51,
	I_GetDimensionsCount = 61, I_GetDimensions = 62, I_GetTensorTypeAndShape = 65,
	I_CreateCpuMemoryInfo = 69, I_ReleaseEnv = 92, I_ReleaseStatus = 93,
	I_ReleaseMemoryInfo = 94, I_ReleaseSession = 95, I_ReleaseValue = 96,
	I_ReleaseTensorTypeAndShapeInfo = 99, I_ReleaseSessionOptions = 100,
	I_AddSessionConfigEntry = 130,
};

static void* const* api;
static void* env;
static void* meminfo;

typedef void* status;
#define FN(i, ret, ...) ((ret (*)(__VA_ARGS__))api[i])

// err turns a status into a malloc'd message (NULL for success) and releases it.
static char* err(status s) {
	if (s == NULL) return NULL;
	const char* m = FN(I_GetErrorMessage, const char*, status)(s);
	char* out = strdup(m ? m : "unknown error");
	FN(I_ReleaseStatus, void, status)(s);
	return out;
}

// ort_load opens the library and creates the environment; returns an error message or NULL.
static char* ort_load(const char* path, char* version, size_t vlen) {
	void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) return strdup(dlerror());
	const api_base* (*get_base)(void) = (const api_base* (*)(void))dlsym(h, "OrtGetApiBase");
	if (get_base == NULL) return strdup("no OrtGetApiBase in the library");
	const api_base* base = get_base();
	strncpy(version, base->GetVersionString(), vlen - 1);
	api = (void* const*)base->GetApi(16);
	if (api == NULL) return strdup("the library does not serve OrtApi version 16");
	char* e = err(FN(I_CreateEnv, status, int, const char*, void**)(3, "ranklab", &env)); // 3 = ERROR
	if (e) return e;
	// OrtArenaAllocator = 1, OrtMemTypeDefault = 0
	return err(FN(I_CreateCpuMemoryInfo, status, int, int, void**)(1, 0, &meminfo));
}

static char* ort_session(const char* model, int threads, void** out) {
	void* opts;
	char* e = err(FN(I_CreateSessionOptions, status, void**)(&opts));
	if (e) return e;
	if (!(e = err(FN(I_SetIntraOpNumThreads, status, void*, int)(opts, threads))) &&
	    !(e = err(FN(I_SetInterOpNumThreads, status, void*, int)(opts, 1))) &&
	    !(e = err(FN(I_SetSessionGraphOptimizationLevel, status, void*, int)(opts, 99))) && // ORT_ENABLE_ALL
	    // Idle workers sleep instead of spinning: on a busy machine a spinning worker burns
	    // the CPU the descheduled one needs (12 % more CPU measured beside two busy loops;
	    // the same wall time on an idle machine).
	    !(e = err(FN(I_AddSessionConfigEntry, status, void*, const char*, const char*)(opts, "session.intra_op.allow_spinning", "0"))))
		e = err(FN(I_CreateSession, status, void*, const char*, void*, void**)(env, model, opts, out));
	FN(I_ReleaseSessionOptions, void, void*)(opts);
	return e;
}

static void ort_release_session(void* s) { FN(I_ReleaseSession, void, void*)(s); }

// ort_run feeds ids and mask ([batch, tokens] int64) and copies the first output, a float32
// tensor, into out (cap floats); dims gets its shape (at most 4 dimensions), ndims their number.
static char* ort_run(void* session, int64_t* ids, int64_t* mask, int64_t batch, int64_t tokens,
                     const char* in0, const char* in1, const char* out0,
                     float* out, size_t cap, int64_t* dims, size_t* ndims) {
	int64_t shape[2] = {batch, tokens};
	size_t n = (size_t)(batch * tokens) * sizeof(int64_t);
	void* inputs[2] = {NULL, NULL};
	void* output = NULL;
	char* e;
	typedef status (*mk)(void*, void*, size_t, const int64_t*, size_t, int, void**);
	if ((e = err(((mk)api[I_CreateTensorWithDataAsOrtValue])(meminfo, ids, n, shape, 2, 7, &inputs[0])))) goto done; // 7 = INT64
	if ((e = err(((mk)api[I_CreateTensorWithDataAsOrtValue])(meminfo, mask, n, shape, 2, 7, &inputs[1])))) goto done;
	const char* in_names[2] = {in0, in1};
	const char* out_names[1] = {out0};
	typedef status (*runf)(void*, void*, const char* const*, void* const*, size_t, const char* const*, size_t, void**);
	if ((e = err(((runf)api[I_Run])(session, NULL, in_names, inputs, 2, out_names, 1, &output)))) goto done;
	void* info;
	if ((e = err(FN(I_GetTensorTypeAndShape, status, void*, void**)(output, &info)))) goto done;
	e = err(FN(I_GetDimensionsCount, status, void*, size_t*)(info, ndims));
	if (!e && *ndims > 4) e = strdup("output has more than 4 dimensions");
	if (!e) e = err(FN(I_GetDimensions, status, void*, int64_t*, size_t)(info, dims, *ndims));
	FN(I_ReleaseTensorTypeAndShapeInfo, void, void*)(info);
	if (e) goto done;
	size_t count = 1;
	for (size_t i = 0; i < *ndims; i++) count *= (size_t)dims[i];
	if (count > cap) { e = strdup("output larger than the buffer"); goto done; }
	float* data;
	if ((e = err(FN(I_GetTensorMutableData, status, void*, void**)(output, (void**)&data)))) goto done;
	memcpy(out, data, count * sizeof(float));
done:
	for (int i = 0; i < 2; i++) if (inputs[i]) FN(I_ReleaseValue, void, void*)(inputs[i]);
	if (output) FN(I_ReleaseValue, void, void*)(output);
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

// Session is a loaded graph with two int64 inputs [batch, tokens] and a float32 output.
type Session struct {
	ptr            unsafe.Pointer
	in0, in1, out0 *C.char
}

// NewSession loads the graph at model (Load must have succeeded) with intra-op threads (0: ONNX
// Runtime's default, one per physical core) and all graph optimisations. inputs names the two
// int64 inputs, output the float32 output.
func NewSession(model string, threads int, input0, input1, output string) (*Session, error) {
	if loadVersion == "" {
		return nil, errors.New("ort: NewSession before a successful Load")
	}
	cmodel := C.CString(model)
	defer C.free(unsafe.Pointer(cmodel))
	s := &Session{in0: C.CString(input0), in1: C.CString(input1), out0: C.CString(output)}
	if e := C.ort_session(cmodel, C.int(threads), &s.ptr); e != nil {
		defer C.free(unsafe.Pointer(e))
		s.Close()
		return nil, fmt.Errorf("ort: loading %s: %s", model, C.GoString(e))
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
