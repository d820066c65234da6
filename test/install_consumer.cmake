# cmake -P script: install the pscan build at PSCAN_BUILD_DIR into a fresh prefix, then configure,
# build and run the consumer project at CONSUMER_SOURCE_DIR against it, all under WORK_DIR. With
# CUDA_COMPILER, the consumer's CUDA program is built too; the install_consumer_cuda test runs it.
# The consumer checks that the package's include path is <prefix>/include alone, holding pscan/.
# Fails (non-zero exit) at the first step that fails.

foreach(required PSCAN_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "install_consumer.cmake: -D ${required}=... is required")
  endif()
endforeach()

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${description} failed (${status}): ${ARGN}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

set(config_args)
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
run_step("installing pscan" ${CMAKE_COMMAND} --install ${PSCAN_BUILD_DIR} --prefix ${prefix} ${config_args})
# A CUDA compiler, but never CMAKE_CUDA_ARCHITECTURES: the consumer takes the compiler's default.
set(cuda_args)
if(CUDA_COMPILER)
  set(cuda_args -D CMAKE_CUDA_COMPILER=${CUDA_COMPILER})
endif()
run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build}
         -G ${GENERATOR} -D CMAKE_CXX_COMPILER=${CXX_COMPILER} -D CMAKE_PREFIX_PATH=${prefix}
         -D PSCAN_EXPECTED_INCLUDE_DIR=${prefix}/include ${cuda_args})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${build} ${config_args})
run_step("running the consumer" ${build}/pscan_consumer)
# A program of pscan::pscan alone links no MPI, even where pscan was built with it.
find_program(readelf readelf)
if(readelf)
  execute_process(COMMAND ${readelf} -d ${build}/pscan_consumer OUTPUT_VARIABLE dynamic
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR dynamic MATCHES "libmpi")
    message(FATAL_ERROR "install_consumer: pscan_consumer (pscan::pscan only) links MPI:\n${dynamic}")
  endif()
else()
  message(WARNING "install_consumer: no readelf; the consumer's libraries are not checked for MPI")
endif()
if(EXISTS ${build}/pscan_consumer_distributed)
  run_step("running the consumer over MPI" ${build}/pscan_consumer_distributed)
endif()
