// The C half of SeatKit's wlcs integration module (see Sources/SeatKitWLCS). wlcs and the
// test clients it runs live in the same process as the server; this file is the only one
// that calls libwayland (server and client side) and the only one that sees wlcs's structs.
// Swift sees plain pointers, integers and doubles here: the wlcs headers pull in
// wayland-client-core.h, which must not meet wayland-server-core.h in a Swift module.
#ifndef SEATKIT_WLCS_H
#define SEATKIT_WLCS_H

#include <stddef.h>
#include <stdint.h>

/// A new wl_display (server side), owned by the caller.
void *seatkit_wlcs_display_create(void);
/// Destroys the display's clients, then the display.
void seatkit_wlcs_display_destroy(void *display);
/// The server end of a connection: a wl_client on `display` for `fd` (which it then owns).
void *seatkit_wlcs_client_create(void *display, int fd);
/// The server-side resource with protocol id `id` of `client`, or NULL.
void *seatkit_wlcs_client_object(void *client, uint32_t id);

/// An eventfd (close-on-exec, non-blocking) that wakes the server's loop for a job.
int seatkit_wlcs_wake_fd(void);
/// A line on stderr, prefixed "seatkit-wlcs: ".
void seatkit_wlcs_log(const char *line);

/// The extensions the integration's descriptor lists (the names and versions SeatKit's seat
/// and headless shell advertise), for tests that compare it with the registry.
size_t seatkit_wlcs_extension_count(void);
const char *seatkit_wlcs_extension_name(size_t index);
uint32_t seatkit_wlcs_extension_version(size_t index);

#endif
