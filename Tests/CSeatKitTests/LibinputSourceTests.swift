// This file imports CSeatKit's Swift side (to hold the libinput context's object across its
// end) and the C header for libwayland's event loop; the C API's functions are called
// through the Swift side, qualified, since both declare the same names.
@testable import CSeatKit
import CSeatKitSupport
import Testing

/// The libinput source's wakeup reaches its context unretained (no retain and release per
/// wakeup), which is safe because the source never outlives its context and a wakeup is an
/// API call. These tests hold both guarantees.
struct LibinputSourceTests {
    /// Destroying the context, or its router, removes its source from the compositor's loop
    /// before the context can go; a wakeup that was already due finds the context ended and
    /// reads nothing.
    @Test(arguments: [false, true])
    func aLibinputContextsSourceLeavesTheLoopBeforeTheContextGoes(endedByItsRouter: Bool) throws {
        let loop = try #require(wl_event_loop_create())
        defer { wl_event_loop_destroy(loop) }
        let madeRouter = CSeatKit.seatkit_router_create_virtual(0)
        let router = try #require(madeRouter)
        let madeContext = CSeatKit.seatkit_libinput_create_path(router, nil, 0, nil, nil)
        let handle = try #require(madeContext)
        let context = try #require(Handles.object(handle, .libinput) as? CLibinput)
        let added = CSeatKit.seatkit_libinput_add_to_event_loop(handle, loop)
        #expect(added)
        #expect(context.source?.source != nil)
        if endedByItsRouter {
            CSeatKit.seatkit_router_destroy(router)
        } else {
            CSeatKit.seatkit_libinput_destroy(handle)
        }
        #expect(context.isDestroyed)
        #expect(context.source == nil, "the source left the loop with its context")
        let woken = CLibinput.sourceWakeup(0, 0, Unmanaged.passUnretained(context).toOpaque())
        #expect(woken == 0)
        let dispatched = wl_event_loop_dispatch(loop, 0)
        #expect(dispatched == 0)
        if !endedByItsRouter { CSeatKit.seatkit_router_destroy(router) }
    }

    /// A context ended during an API call (as a callback of its own wakeup would end it)
    /// stays alive until that call returns, then goes: what lets the wakeup use it unretained.
    @Test func aContextEndedDuringAnAPICallLivesUntilTheCallReturns() throws {
        let madeRouter = CSeatKit.seatkit_router_create_virtual(0)
        let router = try #require(madeRouter)
        let madeContext = CSeatKit.seatkit_libinput_create_path(router, nil, 0, nil, nil)
        let handle = try #require(madeContext)
        weak var context = Handles.object(handle, .libinput)
        #expect(context != nil)
        APICall.run {
            CSeatKit.seatkit_libinput_destroy(handle)
            #expect(context != nil, "kept until the outermost call returns")
            (context as? CLibinput)?.dispatchEvents()
        }
        #expect(context == nil, "released when the call returned")
        CSeatKit.seatkit_router_destroy(router)
    }
}
