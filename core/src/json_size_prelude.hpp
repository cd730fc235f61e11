// Force-included first in every wasm translation unit (core/CMakeLists.txt): nlohmann::json's own
// functions and templates are declared inside a minsize region (src/size_region.hpp), so every
// instantiation of the JSON library is optimised for size; the standard library it includes is
// included before the region and keeps -O3 (the physics uses it). JSON parses and writes the
// documents once per request (issue 11: the page's bytes).
#pragma once
#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <clocale>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <forward_list>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <ios>
#include <iosfwd>
#include <istream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <valarray>
#include <vector>

#include "size_region.hpp"

SLO_SIZE_BEGIN
#include <nlohmann/json.hpp>
SLO_SIZE_END
