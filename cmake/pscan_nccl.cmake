# pscan::nccl, an imported target for NCCL's header and library (in the CUDA toolkit or the
# system's libnccl-dev); pscan_nccl_found says whether both were found. Used by the build and by
# the installed package.
if(NOT TARGET pscan::nccl)
  find_path(PSCAN_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(PSCAN_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR})
  if(PSCAN_NCCL_INCLUDE_DIR AND PSCAN_NCCL_LIBRARY)
    add_library(pscan::nccl UNKNOWN IMPORTED)
    set_target_properties(pscan::nccl PROPERTIES IMPORTED_LOCATION "${PSCAN_NCCL_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${PSCAN_NCCL_INCLUDE_DIR}")
  endif()
endif()
if(TARGET pscan::nccl)
  set(pscan_nccl_found ON)
else()
  set(pscan_nccl_found OFF)
endif()
