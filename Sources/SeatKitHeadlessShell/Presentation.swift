import CWaylandServer
import CWaylandShellProtocols
import Glibc
import SeatKit
import SeatKitWayland

// wp_presentation (presentation-time, version 1): a client asks when a commit's content was
// shown. Nothing is drawn here: a content update counts as presented at the frame tick that
// answers its frame callbacks (every 16 ms while something waits), stamped with the router's
// clock (`EventRouter.clock`: CLOCK_MONOTONIC in a compositor on the system clock, virtual
// time under a virtual clock), with no refresh period or sequence (the tick has no fixed
// cycle) and no flags. An update replaced by a later commit before that tick, or whose
// surface is hidden, out of the tree or destroyed by then, is discarded.

extension HeadlessShell {
    func advertisePresentation() {
        let owner = PresentationGlobal()
        owners.append(owner)
        if let g = Libwayland.createGlobal(display.display, wp_presentation_wire()!, version: 1, owner: owner) { globals.append(g) }
    }

    /// A surface's state with `feedbacks` was applied: its earlier content update, not yet
    /// presented, never will be; these wait for the next frame tick.
    func queuePresentation(_ feedbacks: [PresentationFeedback], of surface: ShellSurface) {
        guard !feedbacks.isEmpty || !pendingFeedbacks.isEmpty else { return }
        var kept: [PresentationFeedback] = []
        for feedback in pendingFeedbacks {
            if feedback.surface === surface { feedback.discard() } else { kept.append(feedback) }
        }
        pendingFeedbacks = kept + feedbacks
        if !feedbacks.isEmpty { armFrameTick() }
    }

    /// The frame tick at `now`: each waiting feedback is presented if its surface is shown.
    func presentFeedbacks(at now: Timestamp) {
        let feedbacks = pendingFeedbacks
        pendingFeedbacks.removeAll()
        for feedback in feedbacks {
            guard let surface = feedback.surface, surface.node.isAttached, !surface.node.isHidden else {
                feedback.discard()
                continue
            }
            feedback.present(at: now, outputs: surface.enteredOutput.map { output in
                feedback.resource.map { output.resources(of: Libwayland.client(of: $0)) } ?? []
            } ?? [])
        }
    }

    /// Discards the feedbacks waiting for `surface`'s content (it is gone).
    func discardFeedbacks(of surface: ShellSurface) {
        pendingFeedbacks.removeAll { feedback in
            guard feedback.surface === surface || feedback.surface == nil else { return false }
            feedback.discard()
            return true
        }
    }
}

private final class PresentationGlobal: GlobalOwner {
    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        guard let r = Libwayland.createResource(client, wp_presentation_wire()!, version: Int32(version), id: id,
                                                implementation: presentationRequests, object: nil) else { return }
        Libwayland.post(r, WP_PRESENTATION_CLOCK_ID, .uint(UInt32(CLOCK_MONOTONIC)))
    }
}

/// One wp_presentation_feedback: answered once (presented or discarded), then destroyed.
final class PresentationFeedback: ResourceObject {
    weak var surface: ShellSurface?
    var resource: OpaquePointer?
    init(surface: ShellSurface) { self.surface = surface }

    func present(at time: Timestamp, outputs: [OpaquePointer]) {
        guard let resource else { return }
        for output in outputs { Libwayland.post(resource, WP_PRESENTATION_FEEDBACK_SYNC_OUTPUT, .object(output)) }
        let us = max(0, time.microseconds)
        let seconds = UInt64(us / 1_000_000)
        Libwayland.post(resource, WP_PRESENTATION_FEEDBACK_PRESENTED,
                        .uint(UInt32(truncatingIfNeeded: seconds >> 32)), .uint(UInt32(truncatingIfNeeded: seconds)),
                        .uint(UInt32(us % 1_000_000) * 1000), .uint(0), .uint(0), .uint(0), .uint(0))
        Libwayland.destroyResource(resource)
    }

    func discard() {
        guard let resource else { return }
        Libwayland.post(resource, WP_PRESENTATION_FEEDBACK_DISCARDED)
        Libwayland.destroyResource(resource)
    }

    package func resourceDestroyed() { resource = nil }
}

private nonisolated(unsafe) let presentationRequests = Libwayland.table(wp_presentation_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    feedback: { client, _, surfaceResource, id in
        guard let client, let surface = Libwayland.object(surfaceResource, as: ShellSurface.self) else { return }
        let feedback = PresentationFeedback(surface: surface)
        feedback.resource = Libwayland.createResource(client, wp_presentation_feedback_wire()!, version: 1, id: id,
                                                      implementation: nil, object: feedback)
        surface.pending.feedbacks.append(feedback)
    }
))
