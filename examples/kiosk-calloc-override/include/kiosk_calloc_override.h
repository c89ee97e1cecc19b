/* Nothing to call: calloc.c replaces the C library's calloc in the kiosk (see there). */
