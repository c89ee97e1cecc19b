// The shell protocols of SeatKitHeadlessShell (xdg-shell, xdg-decoration, xdg-output, layer shell, viewporter,
// fractional-scale, presentation-time), generated
// by protocols/generate.sh, apart from the seat's (CWaylandServer): a compositor with its own
// xdg-shell code links SeatKitWayland without a second definition of `xdg_wm_base_interface`
// and the rest; only the headless shell and what tests it link these.
#ifndef CWAYLANDSHELLPROTOCOLS_H
#define CWAYLANDSHELLPROTOCOLS_H

#include "CWaylandServer.h"
#include "xdg-shell-protocol.h"
#include "xdg-decoration-unstable-v1-protocol.h"
#include "xdg-output-unstable-v1-protocol.h"
#include "wlr-layer-shell-unstable-v1-protocol.h"
#include "viewporter-protocol.h"
#include "fractional-scale-v1-protocol.h"
#include "presentation-time-protocol.h"

SEATKIT_REQUESTS(xdg_wm_base) SEATKIT_WIRE(xdg_wm_base)
SEATKIT_REQUESTS(xdg_positioner) SEATKIT_WIRE(xdg_positioner)
SEATKIT_REQUESTS(xdg_surface) SEATKIT_WIRE(xdg_surface)
SEATKIT_REQUESTS(xdg_toplevel) SEATKIT_WIRE(xdg_toplevel)
SEATKIT_REQUESTS(xdg_popup) SEATKIT_WIRE(xdg_popup)
SEATKIT_REQUESTS(zxdg_decoration_manager_v1) SEATKIT_WIRE(zxdg_decoration_manager_v1)
SEATKIT_REQUESTS(zxdg_toplevel_decoration_v1) SEATKIT_WIRE(zxdg_toplevel_decoration_v1)
SEATKIT_REQUESTS(zxdg_output_manager_v1) SEATKIT_WIRE(zxdg_output_manager_v1)
SEATKIT_REQUESTS(zxdg_output_v1) SEATKIT_WIRE(zxdg_output_v1)
SEATKIT_REQUESTS(zwlr_layer_shell_v1) SEATKIT_WIRE(zwlr_layer_shell_v1)
SEATKIT_REQUESTS(zwlr_layer_surface_v1) SEATKIT_WIRE(zwlr_layer_surface_v1)
SEATKIT_REQUESTS(wp_viewporter) SEATKIT_WIRE(wp_viewporter)
SEATKIT_REQUESTS(wp_viewport) SEATKIT_WIRE(wp_viewport)
SEATKIT_REQUESTS(wp_fractional_scale_manager_v1) SEATKIT_WIRE(wp_fractional_scale_manager_v1)
SEATKIT_REQUESTS(wp_fractional_scale_v1) SEATKIT_WIRE(wp_fractional_scale_v1)
SEATKIT_REQUESTS(wp_presentation) SEATKIT_WIRE(wp_presentation)
// wp_presentation_feedback has no requests.
SEATKIT_WIRE(wp_presentation_feedback)
// The core wl_shm, which the headless shell implements itself (SharedMemory.swift).
SEATKIT_REQUESTS(wl_shm) SEATKIT_WIRE(wl_shm)
SEATKIT_REQUESTS(wl_shm_pool) SEATKIT_WIRE(wl_shm_pool)

#endif
