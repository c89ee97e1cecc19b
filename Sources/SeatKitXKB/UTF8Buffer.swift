/// Room for the UTF-8 that xkbcommon writes for one key or one composed sequence. A keyboard
/// or compose state owns one and reuses it, so reading text allocates nothing but the string
/// (stored inline up to 15 bytes). xkbcommon truncates longer text (none in practice).
struct UTF8Buffer: ~Copyable {
    private let capacity = 64
    private let bytes: UnsafeMutablePointer<CChar>

    init() { bytes = .allocate(capacity: capacity) }

    deinit { bytes.deallocate() }

    /// The text `write` puts here. `write` gets the buffer and its capacity, and returns the
    /// length xkbcommon reports without the NUL (more than `capacity - 1` when truncated).
    func read(_ write: (UnsafeMutablePointer<CChar>, Int) -> Int) -> String {
        let length = min(write(bytes, capacity), capacity - 1)
        guard length > 0 else { return "" }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
