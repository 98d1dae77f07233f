/*
 * Native builds under externalNativeBuild: clang, ninja, make and ndk-build, CMake, and AGP's `[CXXnnnn]` failures.
 */

/** clang through CMake or ndk-build: `src/main/cpp/a.cpp:73:10: error: msg` (then an echo and a caret). */
export const CLANG =
  /^\s*((?:[A-Za-z]:)?[^:\s][^:]*?\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|m|mm|inl|ipp)):(\d+):(\d+): (error|warning|fatal error): (.*)$/;
export const NINJA_ERROR = /^\s*(ninja: error: .+|FAILED: \S.*)$/;
/** make's fatal error at a makefile's line (ndk-build's own `.mk` files): `<path>:88: *** message.  Stop.` */
export const MAKE_FATAL = /^\s*((?:[A-Za-z]:)?[^\s:*][^:*]*?):(\d+): \*\*\* (\S.*)$/;
/** AGP's native build failures, `[CXX1405] error when building with ndkBuild using <Android.mk>: Build command failed.` */
export const CXX_ERROR = /^\s*\[CXX\d{4}\] (error|warning) (.*)$/;
/**
 * AGP 2-3's sync error when a native build's command failed, naming the build script it ran (Studio prints it behind
 * `Error:`, the command line behind `ERROR: `): `executing external native build for cmake <path>/CMakeLists.txt`.
 */
export const EXTERNAL_NATIVE_BUILD_FAILED =
  /^executing external native build for \w+ (.+?(?:CMakeLists\.txt|\.mk))(?=\.?(?:\s|$))/;
export const CXX_BUILD_FILE = /^when building with \w+ using (.+?(?:CMakeLists\.txt|\.mk)): /;
/** ndk-build's own checks: `Android NDK: ERROR:<path>/Android.mk:<module>: LOCAL_SRC_FILES points to a missing file`. */
export const NDK_BUILD_LOCATED = /^\s*Android NDK: (ERROR|WARNING):\s*(.+?\.mk):([\w.+-]+): (\S.*?)\s*$/;
export const NDK_BUILD_UNKNOWN_SCRIPT = /^\s*Android NDK: (Your APP_BUILD_SCRIPT points to an unknown file: .+?)\s*$/;
export const CMAKE_ERROR = /^\s*CMake (Error|Warning)(?: \(dev\))? at (.+?):(\d+) \((\w+)\):\s*$/;
