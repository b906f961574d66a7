# irs_compile_in_batches(TARGET SIZE): compiles TARGET's .cpp sources as
# one translation unit per SIZE files of one folder, where a compile is
# mostly parsing the same headers (the unit tests: LLVM and Catch2 in each
# of 80 files). A batch is a generated file that includes its sources by
# paths relative to itself, so that its preprocessed text, which ccache
# hashes, is the same in a clone elsewhere (CMake's UNITY_BUILD writes
# absolute paths). Files marked SKIP_UNITY_BUILD_INCLUSION stay alone.
# IRS_BATCH_SOURCES=OFF compiles every file alone (to see that each one
# includes what it uses).
option(IRS_BATCH_SOURCES "Compile the unit tests in batches of files" ON)

function(irs_compile_in_batches Target Size)
  if(NOT IRS_BATCH_SOURCES)
    return()
  endif()
  get_target_property(Sources ${Target} SOURCES)
  set(BatchDir ${CMAKE_CURRENT_BINARY_DIR}/${Target}-batches)
  set(Folders "")
  foreach(Source IN LISTS Sources)
    get_source_file_property(Alone ${Source} SKIP_UNITY_BUILD_INCLUSION)
    if(Alone OR NOT Source MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(Folder ${Source} DIRECTORY)
    string(MAKE_C_IDENTIFIER "${Folder}" Key)
    list(APPEND Folders ${Key})
    list(APPEND Members_${Key} ${Source})
  endforeach()
  list(REMOVE_DUPLICATES Folders)
  foreach(Key IN LISTS Folders)
    set(Index 0)
    set(Count 0)
    foreach(Source IN LISTS Members_${Key})
      if(Count EQUAL Size)
        math(EXPR Index "${Index} + 1")
        set(Count 0)
      endif()
      get_filename_component(Absolute ${Source} ABSOLUTE)
      file(RELATIVE_PATH Relative ${BatchDir} ${Absolute})
      string(APPEND Text_${Key}_${Index} "#include \"${Relative}\"\n")
      set_source_files_properties(${Source} PROPERTIES HEADER_FILE_ONLY ON)
      math(EXPR Count "${Count} + 1")
    endforeach()
    foreach(I RANGE ${Index})
      set(Batch ${BatchDir}/${Key}_${I}.cpp)
      # Written only when it changes, so that a reconfigure rebuilds nothing.
      file(CONFIGURE OUTPUT ${Batch} CONTENT "${Text_${Key}_${I}}" @ONLY)
      target_sources(${Target} PRIVATE ${Batch})
    endforeach()
  endforeach()
endfunction()
