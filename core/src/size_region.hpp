// SLO_SIZE_BEGIN ... SLO_SIZE_END around a file's own functions (after its #includes): in the wasm
// build they are optimised for size (clang's minsize), the rest of the file's build (the library
// templates it instantiates, shared with the physics' hot paths) keeps -O3. For code that runs once
// per request: parsing, validation, presets, the API's documents (issue 11: the page's bytes). A
// whole file at -Os instead made a wasm report 2 ms slower (the instantiations it emits are picked
// by the linker for the hot paths too). Native builds are unaffected.
#pragma once

#if defined(__EMSCRIPTEN__) && defined(__clang__)
#define SLO_SIZE_BEGIN _Pragma("clang attribute push (__attribute__((minsize)), apply_to = function)")
#define SLO_SIZE_END _Pragma("clang attribute pop")
#else
#define SLO_SIZE_BEGIN
#define SLO_SIZE_END
#endif
