import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit

// Input kinds, composition, priority and masks of recognizers, for C (issue 30, goals 3 and 5).

private func kinds(_ raw: UInt32, _ function: StaticString) -> GestureInputKinds? {
    guard raw & ~UInt32(GestureInputKinds.all.rawValue) == 0 else {
        misuse(function, "input kinds 0x\(String(raw, radix: 16)) are not a set of SEATKIT_INPUT_*; refused")
        return nil
    }
    return GestureInputKinds(rawValue: UInt8(raw))
}

@_cdecl("seatkit_recognizer_set_input_kinds")
public func seatkit_recognizer_set_input_kinds(_ handle: OpaquePointer?, _ raw: UInt32) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function), let k = kinds(raw, #function) else { return false }
    c.recognizer.allowedInputKinds = k
    return true
}

@_cdecl("seatkit_recognizer_get_input_kinds")
public func seatkit_recognizer_get_input_kinds(_ handle: OpaquePointer?) -> UInt32 {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return UInt32(c.recognizer.inputKinds.rawValue)
}

@_cdecl("seatkit_recognizer_get_supported_input_kinds")
public func seatkit_recognizer_get_supported_input_kinds(_ handle: OpaquePointer?) -> UInt32 {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return UInt32(c.recognizer.supportedInputKinds.rawValue)
}

@_cdecl("seatkit_recognizer_get_current_input_kind")
public func seatkit_recognizer_get_current_input_kind(_ handle: OpaquePointer?) -> UInt32 {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return 0 }
    return UInt32(c.recognizer.currentInputKind.rawValue)
}

@_cdecl("seatkit_recognizer_set_high_priority")
public func seatkit_recognizer_set_high_priority(_ handle: OpaquePointer?, _ on: Bool) {
    live(handle, .recognizer, as: CRecognizer.self, #function)?.recognizer.isHighPriority = on
}

@_cdecl("seatkit_recognizer_set_mask")
public func seatkit_recognizer_set_mask(_ handle: OpaquePointer?, _ raw: UInt32) -> Bool {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return false }
    guard raw & ~UInt32(GestureMask.all.rawValue) == 0 else {
        misuse(#function, "mask 0x\(String(raw, radix: 16)) is not a set of SEATKIT_MASK_*; refused")
        return false
    }
    c.recognizer.mask = GestureMask(rawValue: UInt8(raw))
    return true
}

/// The two parts of a composite, checked: live, of `router`, distinct, not composites' parts
/// already, and not the composite's ancestor.
private func parts(_ router: OpaquePointer?, _ first: OpaquePointer?, _ second: OpaquePointer?,
                   _ function: StaticString) -> (GestureRecognizer, GestureRecognizer)? {
    guard let r = live(router, .router, as: CRouter.self, function),
          let a = live(first, .recognizer, as: CRecognizer.self, function),
          let b = live(second, .recognizer, as: CRecognizer.self, function) else { return nil }
    guard a.owner === r, b.owner === r else {
        misuse(function, "a part belongs to another router; refused")
        return nil
    }
    guard a !== b else {
        misuse(function, "a recognizer cannot be composed with itself; refused")
        return nil
    }
    for part in [a, b] where part.recognizer.composite != nil {
        misuse(function, "\(part.recognizer.name) is already a part of \(part.recognizer.composite!.name); refused")
        return nil
    }
    APICall.run {
        a.detach()
        b.detach()
    }
    return (a.recognizer, b.recognizer)
}

@_cdecl("seatkit_recognizer_create_sequence")
public func seatkit_recognizer_create_sequence(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                               _ first: OpaquePointer?, _ second: OpaquePointer?) -> OpaquePointer? {
    register(router, #function) {
        guard let (a, b) = parts(router, first, second, #function) else { return nil }
        return a.sequenced(before: b, name: name.map { String(cString: $0) })
    }
}

@_cdecl("seatkit_recognizer_create_exclusive")
public func seatkit_recognizer_create_exclusive(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                _ first: OpaquePointer?, _ second: OpaquePointer?) -> OpaquePointer? {
    register(router, #function) {
        guard let (a, b) = parts(router, first, second, #function) else { return nil }
        return a.exclusively(before: b, name: name.map { String(cString: $0) })
    }
}

@_cdecl("seatkit_recognizer_create_simultaneous")
public func seatkit_recognizer_create_simultaneous(_ router: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                                   _ first: OpaquePointer?, _ second: OpaquePointer?) -> OpaquePointer? {
    register(router, #function) {
        guard let (a, b) = parts(router, first, second, #function) else { return nil }
        return a.simultaneously(with: b, name: name.map { String(cString: $0) })
    }
}

@_cdecl("seatkit_recognizer_get_winner")
public func seatkit_recognizer_get_winner(_ handle: OpaquePointer?) -> OpaquePointer? {
    guard let c = live(handle, .recognizer, as: CRecognizer.self, #function) else { return nil }
    let part: GestureRecognizer?
    switch c.recognizer {
    case let e as ExclusiveGestureRecognizer: part = e.winner
    case let s as SequenceGestureRecognizer: part = s.stage == .second ? s.second : s.first
    default: part = nil
    }
    guard let part else { return nil }
    return c.owner.recognizers.first { $0.recognizer === part }?.handle
}
