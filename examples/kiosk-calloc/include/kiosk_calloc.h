/* Nothing to call: calloc.c replaces glibc's calloc in the kiosk (see there). */
