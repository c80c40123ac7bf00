#include "accounts/access_control.hpp"
