import CWaylandServer
import SeatKit

// xdg-activation-v1 (version 1): a client asks for a token, another (or the same) client
// activates one of its surfaces with it. The focus policy: a token counts only when the client
// that asked had keyboard focus then and quoted the serial of a key, button or touch down it
// was sent (user input, not a timer); anything else only marks the surface urgent.

/// `xdg_activation_v1` (version 1) for one ``Seat``, for any compositor, with a focus policy:
/// a window is activated (given keyboard focus) only with a token made by the client that had
/// keyboard focus when it asked, quoting the serial of a key, button or touch down it was sent
/// (``Seat/serials``): the user just acted in it. Any other activation (a token from a client
/// without focus or without such a serial, a token unknown, used or older than
/// ``tokenLifetime`` on the router's clock) only asks for attention (``urgencyRequested``).
/// A token is good for one activation.
public final class XDGActivation: GlobalOwner {
    /// The seat whose keyboard focus and serials decide. Not kept: let go of this first.
    public unowned let seat: Seat
    /// How long a token stays good, on the router's clock.
    public var tokenLifetime = TimeSpan.seconds(30)
    /// Activates `surface` (a wl_surface), given its node from the seat's
    /// ``WaylandSurfaceRoles/node(forSurface:)`` (nil when the provider knows none). By
    /// default the node becomes the router's first responder (through
    /// `becomeFirstResponder`, so a responder that refuses keeps focus where it was).
    public var activate: (_ node: Surface?, _ surface: OpaquePointer) -> Void
    /// Told when an activation was refused by the policy: the compositor may mark the window
    /// urgent. Default: nothing.
    public var urgencyRequested: ((_ node: Surface?, _ surface: OpaquePointer) -> Void)?
    private var global: OpaquePointer?
    /// Tokens handed out, newest last: whether each was granted and when.
    var tokens: [(token: String, granted: Bool, issued: Timestamp)] = []

    /// Advertises `xdg_activation_v1` on the seat's display.
    /// Kept, so that the display outlives the globals this object destroys when it goes,
    /// whatever order the compositor lets go of its objects in (an optimized build ends a
    /// local's lifetime at its last use).
    private let displayKeptAlive: WaylandDisplay

    public init(seat: Seat) {
        self.seat = seat
        displayKeptAlive = seat.display
        activate = { [unowned seat] node, _ in
            if let node { _ = seat.router.becomeFirstResponder(node) }
        }
        global = Libwayland.createGlobal(seat.display.display, xdg_activation_v1_wire()!, version: 1, owner: self)
    }

    deinit { if let global { Libwayland.destroyGlobal(global) } }

    package func bind(client: OpaquePointer, version: UInt32, id: UInt32) {
        _ = Libwayland.createResource(client, xdg_activation_v1_wire()!, version: Int32(version), id: id,
                                      implementation: activationRequests, object: self)
    }

    /// A token the compositor hands out itself (to a program it launches, as
    /// `XDG_ACTIVATION_TOKEN`): always granted, once, within ``tokenLifetime``.
    public func makeToken() -> String { issue(granted: true) }

    func issue(granted: Bool) -> String {
        var token = ""
        for _ in 0..<4 { token += String(UInt32.random(in: 0...UInt32.max), radix: 16) }
        tokens.append((token, granted, seat.router.clock.now))
        if tokens.count > 64 { tokens.removeFirst(tokens.count - 64) }
        return token
    }

    /// The policy, when the client commits its token request.
    func commit(_ request: TokenRequest, client: OpaquePointer) -> String {
        let id = ClientID(client)
        let granted = seat.keyboardFocusClient == id
            && request.serial.map { seat.serials.contains($0, for: id, kinds: [.key, .button, .touchDown]) } == true
        return issue(granted: granted)
    }

    func activate(token: String, surface: OpaquePointer) {
        let node = seat.surfaceRoles?.node(forSurface: surface)
        let now = seat.router.clock.now
        if let index = tokens.firstIndex(where: { $0.token == token }) {
            let entry = tokens.remove(at: index)
            if entry.granted, now - entry.issued < tokenLifetime {
                activate(node, surface)
                return
            }
        }
        urgencyRequested?(node, surface)
    }
}

/// One client's `xdg_activation_token_v1`, before and after its commit.
final class TokenRequest {
    weak var activation: XDGActivation?
    var serial: UInt32?
    var committed = false
    init(activation: XDGActivation) { self.activation = activation }
}

private nonisolated(unsafe) let activationRequests = Libwayland.table(xdg_activation_v1_requests(
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } },
    get_activation_token: { client, resource, id in
        guard let client, let resource, let activation = Libwayland.object(resource, as: XDGActivation.self) else { return }
        _ = Libwayland.createResource(client, xdg_activation_token_v1_wire()!, version: 1, id: id,
                                      implementation: tokenRequests, object: TokenRequest(activation: activation))
    },
    activate: { _, resource, token, surface in
        guard let resource, let token, let surface, let activation = Libwayland.object(resource, as: XDGActivation.self) else { return }
        activation.activate(token: String(cString: token), surface: surface)
    }
))

private func unusedRequest(_ resource: OpaquePointer?) -> TokenRequest? {
    guard let resource, let request = Libwayland.object(resource, as: TokenRequest.self) else { return nil }
    guard !request.committed else {
        Libwayland.postError(resource, code: XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue, "the token was already committed")
        return nil
    }
    return request
}

private nonisolated(unsafe) let tokenRequests = Libwayland.table(xdg_activation_token_v1_requests(
    set_serial: { _, resource, serial, _ in unusedRequest(resource)?.serial = serial },
    set_app_id: { _, resource, _ in _ = unusedRequest(resource) },
    set_surface: { _, resource, _ in _ = unusedRequest(resource) },
    commit: { client, resource in
        guard let client, let resource, let request = unusedRequest(resource) else { return }
        request.committed = true
        let token = request.activation?.commit(request, client: client) ?? "invalid"
        Libwayland.post(resource, XDG_ACTIVATION_TOKEN_V1_DONE, .string(token))
    },
    destroy: { _, resource in if let resource { Libwayland.destroyResource(resource) } }
))
