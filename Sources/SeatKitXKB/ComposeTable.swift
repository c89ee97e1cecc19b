#if canImport(Glibc)
import Glibc
#endif

/// Compose sequences (`xkb_compose_table`): dead keys and Multi_key sequences, such as
/// dead_acute e → é, Multi_key o c → ©. Immutable; share it between keyboards.
public final class ComposeTable {
    let handle: OpaquePointer
    public let context: KeymapContext
    /// The locale the table was loaded for (after resolving the environment).
    public let locale: String

    /// The system's table for `locale` (`/usr/share/X11/locale/<locale>/Compose`, or
    /// `$XCOMPOSEFILE`, `~/.XCompose`), for a UTF-8 locale such as "en_US.UTF-8" or "C.UTF-8".
    /// `nil` takes the locale from `LC_ALL`, `LC_CTYPE` or `LANG`, as a program's
    /// `setlocale` would. Throws ``KeymapError/composeTableUnavailable(locale:messages:)``
    /// when there is no table for the locale (its data is Debian's `libx11-data`).
    public convenience init(locale: String? = nil, context: KeymapContext? = nil) throws {
        let context = try context ?? KeymapContext()
        let locale = locale ?? ComposeTable.environmentLocale()
        try self.init(handle: XKB.newComposeTable(context.handle, locale: locale), context: context, locale: locale)
    }

    /// A table in Compose file syntax (`<dead_acute> <e> : "é" eacute`). `locale` resolves
    /// `include "%L"` lines and the text's encoding. Throws
    /// ``KeymapError/composeTableUnavailable(locale:messages:)`` when the text does not parse.
    public convenience init(string: String, locale: String = "C.UTF-8", context: KeymapContext? = nil) throws {
        let context = try context ?? KeymapContext()
        try self.init(handle: XKB.newComposeTable(context.handle, string: string, locale: locale),
                      context: context, locale: locale)
    }

    /// A Compose file. Throws ``KeymapError/cannotOpen(path:_:)`` when it cannot be read.
    public convenience init(contentsOfFile path: String, locale: String = "C.UTF-8", context: KeymapContext? = nil) throws {
        let context = try context ?? KeymapContext()
        switch XKB.newComposeTable(context.handle, path: path, locale: locale) {
        case .failure(let errno): throw KeymapError.cannotOpen(path: path, errno)
        case .success(let handle): try self.init(handle: handle, context: context, locale: locale)
        }
    }

    /// Takes what xkbcommon made (`nil`: no table), emptying the context's log either way.
    private init(handle: OpaquePointer?, context: KeymapContext, locale: String) throws {
        let messages = context.log.drain()
        guard let handle else { throw KeymapError.composeTableUnavailable(locale: locale, messages: messages) }
        self.handle = handle
        self.context = context
        self.locale = locale
    }

    deinit { XKB.unref(composeTable: handle) }

    static func environmentLocale() -> String {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return "C"
    }
}

/// Where a compose sequence stands (`enum xkb_compose_status`).
public enum ComposeStatus: Sendable, Hashable {
    /// No sequence in progress.
    case nothing
    /// Part of a sequence has been typed (a dead key, Multi_key): more keys are needed.
    case composing
    /// The last key completed a sequence: its text and keysym are the composed ones.
    case composed
    /// The last key broke off a sequence; it types nothing.
    case cancelled
}

/// The progress of one keyboard through a ``ComposeTable`` (`xkb_compose_state`).
/// Feed it the keysym of every key press (not releases, not repeats).
public final class ComposeState {
    public let table: ComposeTable
    let handle: OpaquePointer
    private let textBuffer = UTF8Buffer()

    public init(table: ComposeTable) {
        guard let handle = XKB.newComposeState(table.handle) else {
            preconditionFailure("xkbcommon could not allocate a compose state")
        }
        self.table = table
        self.handle = handle
    }

    deinit { XKB.unref(composeState: handle) }

    /// Feeds a pressed key's keysym. Returns false when it was ignored (modifier keysyms
    /// are, so Shift inside a sequence does not break it).
    @discardableResult
    public func feed(_ keysym: UInt32) -> Bool { XKB.composeFeed(handle, keysym) }

    /// Abandons any sequence in progress.
    public func reset() { XKB.composeReset(handle) }

    public var status: ComposeStatus {
        switch XKB.composeStatus(handle) {
        case 1: return .composing
        case 2: return .composed
        case 3: return .cancelled
        default: return .nothing
        }
    }

    /// The composed text when ``status`` is `.composed`, else "".
    public var text: String {
        textBuffer.read { XKB.composeUTF8(handle, into: $0, capacity: $1) }
    }

    /// The composed keysym when ``status`` is `.composed` and the result is one keysym, else 0.
    public var keysym: UInt32 { XKB.composeKeysym(handle) }
}
