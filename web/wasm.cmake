# WebAssembly build of the core for the browser app and Node (included by the
# top-level CMakeLists.txt when configured with emcmake).
#
#   roverlab_wasm  ->  web/src/wasm/roverlab_core.js + roverlab_core.wasm
#
# An ES module whose default export is the factory:
#   import createRoverlabCore from './wasm/roverlab_core.js';
#   const core = await createRoverlabCore({ locateFile: () => wasmUrl });
# The files are generated (gitignored); Vite serves and bundles them from web/src/wasm.
# In Node, `await createRoverlabCore()` reads the .wasm next to the .js (see wasm-pre.js).

set(ROVERLAB_WASM_OUTPUT_DIR "${CMAKE_CURRENT_SOURCE_DIR}/web/src/wasm"
    CACHE PATH "Where roverlab_core.js and roverlab_core.wasm are written")

file(GLOB BINDINGS_SOURCES CONFIGURE_DEPENDS core/bindings/*.cpp)
add_executable(roverlab_wasm ${BINDINGS_SOURCES})
target_link_libraries(roverlab_wasm PRIVATE roverlab_core ${JSON_TARGET})
target_compile_options(roverlab_wasm PRIVATE -O3 -Wall -Wextra)
set_target_properties(roverlab_wasm PROPERTIES
  OUTPUT_NAME roverlab_core
  SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY "${ROVERLAB_WASM_OUTPUT_DIR}")
target_link_options(roverlab_wasm PRIVATE
  -O3
  -lembind
  -sMODULARIZE=1
  -sEXPORT_ES6=1
  -sEXPORT_NAME=createRoverlabCore
  -sALLOW_MEMORY_GROWTH=1
  -sENVIRONMENT=web,worker,node
  # A library must not install process-wide handlers in Node.
  -sNODEJS_CATCH_EXIT=0
  -sNODEJS_CATCH_REJECTION=0
  "--pre-js=${CMAKE_CURRENT_SOURCE_DIR}/web/wasm-pre.js")
# Relink when the pre-js changes.
set_property(TARGET roverlab_wasm APPEND PROPERTY LINK_DEPENDS
  "${CMAKE_CURRENT_SOURCE_DIR}/web/wasm-pre.js")
