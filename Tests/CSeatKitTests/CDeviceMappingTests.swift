import CSeatKitSupport
import Testing

extension TheProcessWideCLog {
    /// The C entry point of the router's device mapping (seatkit_router_map_device): the rule
    /// by device name, the calibration, the output's transform followed after it changes, the
    /// fallback for an unmapped touchscreen (first output) and pointer (whole layout), and a
    /// bad matrix refused with a log line.
    @Suite struct CDeviceMappingTests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        private func point(_ router: OpaquePointer, _ device: UInt32, _ x: Double, _ y: Double) -> [Double] {
            var lx = 0.0, ly = 0.0
            #expect(seatkit_router_device_point_from_normalized(router, device, x, y, &lx, &ly))
            return [lx, ly]
        }

        @Test func aDeviceMappedByNameLandsOnItsOutputThroughItsCalibrationAndTransform() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            defer { seatkit_router_destroy(router) }
            let a = try #require(seatkit_output_create(router, "A", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            let b = try #require(seatkit_output_create(router, "B", 1000, 0, 800, 480, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            var touch = seatkit_device_info()
            touch.capabilities = UInt32(SEATKIT_DEVICE_TOUCH.rawValue)
            "Panel Touch".withCString { name in
                touch.name = name
                seatkit_router_notify_device_added(router, 0, 7, &touch)
            }
            #expect(seatkit_router_get_device_output(router, 7) == a, "unmapped: the first output")
            #expect(point(router, 7, 0.5, 0.25) == [500, 250])
            #expect(seatkit_router_map_device(router, "Panel Touch", "B", nil) as Bool)
            #expect(seatkit_router_get_device_output(router, 7) == b)
            #expect(point(router, 7, 0.25, 0.5) == [1200, 240])
            // Rotated later: followed with nothing mapped again (logical 480x800).
            seatkit_output_set_transform(b, SEATKIT_OUTPUT_TRANSFORM_90)
            #expect(point(router, 7, 0.1, 0.2) == [1000 + 0.8 * 480, 80])
            // A calibration swapping the axes, with the output kept.
            let swap: [Double] = [0, 1, 0, 1, 0, 0]
            #expect(seatkit_router_map_device(router, "Panel Touch", "B", swap) as Bool)
            #expect(point(router, 7, 0.2, 0.1) == [1000 + 0.8 * 480, 80])
            // A pointer nothing maps spans the layout (1480x1000, B rotated).
            var mouse = seatkit_device_info()
            mouse.capabilities = UInt32(SEATKIT_DEVICE_POINTER.rawValue)
            seatkit_router_notify_device_added(router, 0, 3, &mouse)
            #expect(seatkit_router_get_device_output(router, 3) == nil)
            #expect(point(router, 3, 0.5, 0.5) == [740, 500])
            // Bad input: refused, logged, the mapping kept.
            let before = loggedLines.count
            let bad: [Double] = [1, 0, .nan, 0, 1, 0]
            #expect(!(seatkit_router_map_device(router, "Panel Touch", "A", bad) as Bool))
            var lx = 0.0, ly = 0.0
            #expect(!seatkit_router_device_point_from_normalized(router, 7, .infinity, 0, &lx, &ly))
            #expect(loggedLines.count - before == 2, "\(loggedLines[before...])")
            #expect(seatkit_router_get_device_output(router, 7) == b)
            // No output and no calibration: the rule is gone.
            #expect(seatkit_router_map_device(router, "Panel Touch", nil, nil) as Bool)
            #expect(seatkit_router_get_device_output(router, 7) == a)
        }

        /// seatkit_router_map_device_area: a tablet on a region of the layout, turned a
        /// quarter; a rotation that is no quarter turn and an empty region refused, logged.
        @Test func aTabletMappedToARegionAndRotatedFromC() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            defer { seatkit_router_destroy(router) }
            _ = try #require(seatkit_output_create(router, "A", 0, 0, 1000, 1000, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            var pen = seatkit_device_info()
            pen.capabilities = UInt32(SEATKIT_DEVICE_TABLET_TOOL.rawValue)
            "Wacom Pen".withCString { name in
                pen.name = name
                seatkit_router_notify_device_added(router, 0, 9, &pen)
            }
            let region: [Double] = [100, 200, 400, 300]
            #expect(seatkit_router_map_device_area(router, "Wacom Pen", nil, region, 0, nil) as Bool)
            #expect(point(router, 9, 0.5, 0.5) == [300, 350])
            #expect(seatkit_router_map_device_area(router, "Wacom Pen", nil, region, 90, nil) as Bool)
            // A quarter turn: (0.25, 0) → (1, 0.25).
            #expect(point(router, 9, 0.25, 0) == [500 - 1.0 / 256, 275])
            // Rotated on its output, no region.
            #expect(seatkit_router_map_device_area(router, "Wacom Pen", "A", nil, 180, nil) as Bool)
            #expect(point(router, 9, 0.25, 0.5) == [750, 500])
            let before = loggedLines.count
            #expect(!(seatkit_router_map_device_area(router, "Wacom Pen", nil, region, 45, nil) as Bool))
            let empty: [Double] = [0, 0, 0, 10]
            #expect(!(seatkit_router_map_device_area(router, "Wacom Pen", nil, empty, 0, nil) as Bool))
            #expect(loggedLines.count - before == 2, "\(loggedLines[before...])")
            #expect(point(router, 9, 0.25, 0.5) == [750, 500], "the mapping kept")
            #expect(seatkit_router_map_device_area(router, "Wacom Pen", nil, nil, 0, nil) as Bool)
            #expect(point(router, 9, 0.25, 0.5) == [250, 500])
        }
    }
}
