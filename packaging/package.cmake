# The Debian package (`make package`; docs/deploy.md "Debian package"): the binary, the
# catalog data, a default config in /etc/toolcalc/, the systemd unit, the docs, and
# maintainer scripts that create the `toolcalc` system user and its data directory and
# enable the unit. Depends: derived by dpkg-shlibdeps from the binary's libraries, plus
# what the maintainer scripts run.
#
# The packaged binary is the same objects as build/toolcalc, linked with its own
# default_catalog_dir() (packaging/installed_catalog_dir.cpp): one more link, no second
# build. CPack strips it, so neither debug information nor any other path of the build
# machine is installed (tests/package/test_deb.py checks the whole package for them).
set(TOOLCALC_INSTALLED_CATALOG_DIR /usr/share/toolcalc/catalog)

add_executable(toolcalc_package EXCLUDE_FROM_ALL src/main.cpp
               packaging/installed_catalog_dir.cpp)
target_link_libraries(toolcalc_package PRIVATE toolcalc_cli)
target_compile_definitions(toolcalc_package PRIVATE
  TOOLCALC_INSTALLED_CATALOG_DIR="${TOOLCALC_INSTALLED_CATALOG_DIR}")
set_target_properties(toolcalc_package PROPERTIES OUTPUT_NAME toolcalc
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/package)

# The package's config: config/toolcalc.toml (every setting, documented) with the
# installed layout's values. Each replacement must apply.
file(READ ${CMAKE_SOURCE_DIR}/config/toolcalc.toml TOOLCALC_CONFIG_TEXT)
foreach(pair
    "listen = \"0.0.0.0:8080\"   #|listen = \"127.0.0.1:8080\" #"
    "data_dir = \"var\"          #|data_dir = \"/var/lib/toolcalc\" #"
    "# dir = \"catalog\"         #|# dir = \"${TOOLCALC_INSTALLED_CATALOG_DIR}\" #")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  string(FIND "${TOOLCALC_CONFIG_TEXT}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "packaging: '${from}' is not in config/toolcalc.toml")
  endif()
  string(REPLACE "${from}" "${to}" TOOLCALC_CONFIG_TEXT "${TOOLCALC_CONFIG_TEXT}")
endforeach()
set(TOOLCALC_PACKAGED_CONFIG ${CMAKE_BINARY_DIR}/package/toolcalc.toml)
file(WRITE ${TOOLCALC_PACKAGED_CONFIG}
  "# /etc/toolcalc/toolcalc.toml, from the toolcalc package: listens on loopback only\n"
  "# (put the TLS front of deploy/nginx/ before it) and keeps its data in /var/lib/toolcalc.\n"
  "# A conffile: an upgrade keeps your changes. Settings can also come from the\n"
  "# environment, e.g. in /etc/toolcalc/environment (docs/operations.md).\n\n"
  "${TOOLCALC_CONFIG_TEXT}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/config/toolcalc.toml)

install(TARGETS toolcalc_package RUNTIME DESTINATION bin)
install(FILES catalog/domains.toml catalog/llm-pricing.toml
        DESTINATION ${TOOLCALC_INSTALLED_CATALOG_DIR})
install(FILES ${TOOLCALC_PACKAGED_CONFIG} DESTINATION /etc/toolcalc
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
install(FILES deploy/toolcalc.service DESTINATION /lib/systemd/system)
install(FILES README.md docs/operations.md docs/deploy.md docs/api.md
        DESTINATION share/doc/toolcalc)

# cpack installs without building `all` first (the unit tests are not in the package);
# `make package` builds toolcalc_package itself.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME toolcalc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "toolcalc maintainers <maintainers@toolcalc.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "JSON-over-HTTP catalog of engineering and cost calculators")
set(CPACK_PACKAGE_DESCRIPTION
    "toolcalc serves engineering calculators over HTTP: each tool describes its inputs and\n outputs, validates requests and returns JSON. API keys, rate limits and monthly quotas\n on an embedded SQLite store or a Redis shared by a fleet.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What dpkg-shlibdeps cannot see: the maintainer scripts' adduser (the systemd helpers
# come with init-system-helpers, which every Debian system has).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/debian/conffiles ${CMAKE_SOURCE_DIR}/packaging/debian/postinst
    ${CMAKE_SOURCE_DIR}/packaging/debian/prerm ${CMAKE_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
