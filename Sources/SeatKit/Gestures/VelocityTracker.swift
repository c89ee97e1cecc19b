/// A velocity read from a ``VelocityTracker``: the slope, at the newest sample, of a
/// least-squares quadratic through the samples of the last 100 ms.
public struct VelocityEstimate: Sendable, Hashable, CustomStringConvertible {
    /// Change per second of the tracked quantity, in its units (layout units per second for
    /// a position; per second for a scale or an angle, kept in `dx`).
    public var perSecond: Vector
    /// How well the fit matches the samples, 0...1: the product of the coefficients of
    /// determination of the two fits. 1 when there was nothing to fit (a resting point, fewer
    /// than three samples: ``perSecond`` is zero then, and that zero is certain).
    public var confidence: Double
    /// From the oldest sample used to the newest.
    public var duration: TimeSpan
    /// From the oldest sample used to the newest, in the quantity's units.
    public var offset: Vector
    /// Samples the fit used (fewer than ``VelocityTracker/minimumSamples``: none was fitted).
    public var sampleCount: Int

    /// An estimate.
    public init(perSecond: Vector, confidence: Double, duration: TimeSpan, offset: Vector, sampleCount: Int) {
        self.perSecond = perSecond
        self.confidence = confidence
        self.duration = duration
        self.offset = offset
        self.sampleCount = sampleCount
    }

    /// No motion, no samples.
    public static let none = VelocityEstimate(perSecond: .zero, confidence: 0, duration: TimeSpan(microseconds: 0),
                                              offset: .zero, sampleCount: 0)

    /// "(dx, dy)/s confidence c over n samples".
    public var description: String {
        "(\(perSecond.dx), \(perSecond.dy))/s confidence \(confidence) over \(sampleCount) samples"
    }
}

/// Estimates the velocity of a moving quantity (a position, a scale, an angle) from its
/// recent samples, as Flutter's `VelocityTracker` does: a least-squares quadratic over the
/// samples of the last ``horizon`` (100 ms), newest first, stopping at a gap longer than
/// ``stopGap`` (40 ms: the finger paused, what came before is another motion); at least
/// ``minimumSamples`` (3) samples, else the velocity is zero. Asked for the velocity at a
/// time more than ``stopGap`` after the newest sample, it answers zero: the finger rested
/// before it lifted, so there is no fling.
///
/// Samples go into a fixed ring of ``historySize`` (20), stored inline: adding one allocates
/// nothing and costs a few stores; the fit runs only when an estimate is asked for. Times
/// are the router's (event times), never the wall clock's.
///
/// Two channels (`x`, `y`) per sample: a position, or two quantities tracked together
/// (a pinch's scale and span). The built-in recognizers track quantities that do not jump
/// when fingers join or leave (their translation, not the centroid).
public struct VelocityTracker: Sendable {
    /// The ring's size: the most samples a fit uses.
    public static let historySize = 20
    /// How far back from the newest sample the fit reaches.
    public static let horizon = TimeSpan.milliseconds(100)
    /// A gap between samples (or between the newest sample and the time asked about) longer
    /// than this ends the motion.
    public static let stopGap = TimeSpan.milliseconds(40)
    /// Fewest samples fitted.
    public static let minimumSamples = 3

    private var xs = InlineArray<20, Double>(repeating: 0)
    private var ys = InlineArray<20, Double>(repeating: 0)
    private var times = InlineArray<20, Int64>(repeating: 0)
    /// Where the newest sample is.
    private var newest = 0
    /// Samples held, up to ``historySize``.
    public private(set) var count = 0

    /// An empty tracker.
    public init() {}

    /// Forgets every sample.
    public mutating func reset() { count = 0 }

    /// Adds a sample of the quantity (`x`, `y`) at `time` (the event's, on the router's clock).
    /// A sample older than the newest is ignored (times never go back); one at the same time
    /// replaces it.
    public mutating func add(x: Double, y: Double, time: Timestamp) {
        let t = time.microseconds
        if count > 0 {
            if t < times[newest] { return }
            if t == times[newest] {
                xs[newest] = x
                ys[newest] = y
                return
            }
            newest = newest == Self.historySize - 1 ? 0 : newest + 1
        }
        xs[newest] = x
        ys[newest] = y
        times[newest] = t
        if count < Self.historySize { count += 1 }
    }

    /// Adds a position sample.
    public mutating func add(_ point: LayoutPoint, time: Timestamp) { add(x: point.x, y: point.y, time: time) }

    /// Adds a vector sample (a translation since the gesture began).
    public mutating func add(_ vector: Vector, time: Timestamp) { add(x: vector.dx, y: vector.dy, time: time) }

    /// The newest sample's time, if any.
    public var newestTime: Timestamp? { count > 0 ? Timestamp(microseconds: times[newest]) : nil }

    /// The velocity at the newest sample; with `now`, zero when `now` is more than
    /// ``stopGap`` after it (the motion stopped before `now`: what a lift reads for a fling).
    public func estimate(at now: Timestamp? = nil) -> VelocityEstimate {
        guard count > 0 else { return .none }
        let newestTime = times[newest]
        if let now, now.microseconds - newestTime > Self.stopGap.microseconds {
            return VelocityEstimate(perSecond: .zero, confidence: 1, duration: TimeSpan(microseconds: 0), offset: .zero, sampleCount: 0)
        }
        // The samples of the current motion, newest first: times in milliseconds relative to
        // the newest (so 0 and below), which keeps the fit well conditioned.
        var t = InlineArray<20, Double>(repeating: 0)
        var x = InlineArray<20, Double>(repeating: 0)
        var y = InlineArray<20, Double>(repeating: 0)
        var n = 0
        var index = newest
        var previousTime = newestTime
        var oldest = newest
        while n < count {
            let sampleTime = times[index]
            if newestTime - sampleTime > Self.horizon.microseconds || previousTime - sampleTime > Self.stopGap.microseconds { break }
            t[n] = Double(sampleTime - newestTime) / 1000
            x[n] = xs[index]
            y[n] = ys[index]
            n += 1
            oldest = index
            previousTime = sampleTime
            index = index == 0 ? Self.historySize - 1 : index - 1
        }
        let duration = TimeSpan(microseconds: newestTime - times[oldest])
        let offset = Vector(dx: xs[newest] - xs[oldest], dy: ys[newest] - ys[oldest])
        if n >= Self.minimumSamples,
           let fx = Self.quadraticSlope(t: t, v: x, count: n),
           let fy = Self.quadraticSlope(t: t, v: y, count: n) {
            // Per millisecond to per second.
            return VelocityEstimate(perSecond: Vector(dx: fx.slope * 1000, dy: fy.slope * 1000),
                                    confidence: fx.confidence * fy.confidence, duration: duration, offset: offset, sampleCount: n)
        }
        return VelocityEstimate(perSecond: .zero, confidence: 1, duration: duration, offset: offset, sampleCount: n)
    }

    /// The least-squares quadratic v ≈ b0 + b1 t + b2 t² through `count` samples: b1 (the
    /// slope at t = 0) and the coefficient of determination. QR by modified Gram-Schmidt on
    /// the basis 1, t, t² (sampled), then back substitution; nil when the basis is degenerate
    /// (all samples at almost the same time).
    static func quadraticSlope(t: InlineArray<20, Double>, v: InlineArray<20, Double>, count n: Int) -> (slope: Double, confidence: Double)? {
        // q: three orthonormal rows of n values; r: the upper triangle.
        var q = InlineArray<60, Double>(repeating: 0)
        var r = InlineArray<9, Double>(repeating: 0)
        for j in 0..<3 {
            // Row j of the basis: t^j.
            for h in 0..<n {
                let th = t[h]
                q[j * 20 + h] = j == 0 ? 1 : (j == 1 ? th : th * th)
            }
            for i in 0..<j {
                var dot = 0.0
                for h in 0..<n { dot += q[i * 20 + h] * q[j * 20 + h] }
                for h in 0..<n { q[j * 20 + h] -= dot * q[i * 20 + h] }
            }
            var norm = 0.0
            for h in 0..<n { norm += q[j * 20 + h] * q[j * 20 + h] }
            norm = norm.squareRoot()
            if norm < 0.000001 { return nil }
            for h in 0..<n { q[j * 20 + h] /= norm }
            // r[i][j] = q_i · a_j for i <= j (a_j: the original basis row).
            for i in 0...j {
                var dot = 0.0
                for h in 0..<n {
                    let th = t[h]
                    dot += q[i * 20 + h] * (j == 0 ? 1 : (j == 1 ? th : th * th))
                }
                r[i * 3 + j] = dot
            }
        }
        var b = InlineArray<3, Double>(repeating: 0)
        var i = 2
        while i >= 0 {
            var rhs = 0.0
            for h in 0..<n { rhs += q[i * 20 + h] * v[h] }
            var k = 2
            while k > i {
                rhs -= r[i * 3 + k] * b[k]
                k -= 1
            }
            b[i] = rhs / r[i * 3 + i]
            i -= 1
        }
        var mean = 0.0
        for h in 0..<n { mean += v[h] }
        mean /= Double(n)
        var residual = 0.0, total = 0.0
        for h in 0..<n {
            let th = t[h]
            let e = v[h] - (b[0] + b[1] * th + b[2] * th * th)
            residual += e * e
            let d = v[h] - mean
            total += d * d
        }
        let confidence = total <= 0.000001 ? 1 : max(0, 1 - residual / total)
        return (b[1], confidence)
    }
}
