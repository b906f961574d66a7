# ccache for every build: the presets and scripts/setup.sh name it as the
# compiler launcher. Configured here so that a clone of the repository in
# another folder (CI's fresh clone, a second worktree) hits the cache the
# development build filled: paths under the repository's parent are hashed
# relative to it (base_dir: ../shared is beside the repository), and the
# working directory is not hashed even where -g1 is on (the asan preset).
# A CCACHE_* setting in the environment at configure time wins.
if(NOT CMAKE_CXX_COMPILER_LAUNCHER STREQUAL "ccache")
  return()
endif()
find_program(IRS_CCACHE ccache)
if(NOT IRS_CCACHE)
  message(STATUS "ir-sanitize: ccache not found, compiling without it")
  set(CMAKE_CXX_COMPILER_LAUNCHER "")
  set(CMAKE_C_COMPILER_LAUNCHER "")
  return()
endif()
get_filename_component(IRS_CCACHE_BASEDIR ${CMAKE_SOURCE_DIR}/.. ABSOLUTE)
set(IRS_CCACHE_SETTINGS "")
if(NOT DEFINED ENV{CCACHE_BASEDIR})
  list(APPEND IRS_CCACHE_SETTINGS CCACHE_BASEDIR=${IRS_CCACHE_BASEDIR})
endif()
if(NOT DEFINED ENV{CCACHE_NOHASHDIR} AND NOT DEFINED ENV{CCACHE_HASHDIR})
  list(APPEND IRS_CCACHE_SETTINGS CCACHE_NOHASHDIR=1)
endif()
if(IRS_CCACHE_SETTINGS)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env ${IRS_CCACHE_SETTINGS} ${IRS_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
