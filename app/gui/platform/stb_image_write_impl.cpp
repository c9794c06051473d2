// The PNG writer's implementation for the browser build (the desktop links Debian's libstb).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
