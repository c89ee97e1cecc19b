#define WLR_USE_UNSTABLE
#include <wlr/types/wlr_scene.h>
