# `cmake --install` gives a package: find_package(pscan) then target pscan::pscan.
include(CMakePackageConfigHelpers)

install(TARGETS pscan EXPORT pscan-targets)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pscan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The generated headers; not pscan/policies, the build tree's link to the sources (the backends'
# folders install their headers there themselves).
install(DIRECTORY ${PSCAN_GENERATED_INCLUDE_DIR}/pscan DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN policies EXCLUDE)

set(PSCAN_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pscan)
install(EXPORT pscan-targets NAMESPACE pscan:: DESTINATION ${PSCAN_CONFIG_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pscan-config.cmake.in
  ${PROJECT_BINARY_DIR}/pscan-config.cmake INSTALL_DESTINATION ${PSCAN_CONFIG_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pscan-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pscan-config.cmake ${PROJECT_BINARY_DIR}/pscan-config-version.cmake
              ${PROJECT_SOURCE_DIR}/cmake/pscan_nccl.cmake
        DESTINATION ${PSCAN_CONFIG_DIR})
