/*
 * wlroots 0.15's wlr_layer_shell_v1.h includes this header, which a compositor normally
 * generates from wlr-protocols' XML (not packaged in Debian 12). The kiosk needs only the
 * protocol's enums (their values are the protocol's wire values), so they are written out
 * here; wlroots itself carries the interface code.
 */
#ifndef WLR_LAYER_SHELL_UNSTABLE_V1_SERVER_PROTOCOL_H
#define WLR_LAYER_SHELL_UNSTABLE_V1_SERVER_PROTOCOL_H

enum zwlr_layer_shell_v1_layer {
	ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND = 0,
	ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM = 1,
	ZWLR_LAYER_SHELL_V1_LAYER_TOP = 2,
	ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY = 3,
};

enum zwlr_layer_surface_v1_keyboard_interactivity {
	ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE = 0,
	ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE = 1,
	ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND = 2,
};

enum zwlr_layer_surface_v1_anchor {
	ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP = 1,
	ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM = 2,
	ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT = 4,
	ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT = 8,
};

#endif
