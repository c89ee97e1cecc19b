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
        // The samples of the current motion, newest first: within the horizon, no gap over
        // the stop gap. They are read in place from the ring (index `newest - k`).
        let times = self.times.span
        var n = 0
        var previousTime = newestTime
        while n < count {
            let sampleTime = times[ring(n)]
            if newestTime - sampleTime > Self.horizon.microseconds || previousTime - sampleTime > Self.stopGap.microseconds { break }
            previousTime = sampleTime
            n += 1
        }
        let oldest = ring(n - 1)
        let duration = TimeSpan(microseconds: newestTime - times[oldest])
        let offset = Vector(dx: xs[newest] - xs[oldest], dy: ys[newest] - ys[oldest])
        if n >= Self.minimumSamples, let fit = fitQuadratic(count: n, newestTime: newestTime) {
            return VelocityEstimate(perSecond: Vector(dx: fit.slopeX * 1000, dy: fit.slopeY * 1000),  // per ms to per s
                                    confidence: fit.confidence, duration: duration, offset: offset, sampleCount: n)
        }
        return VelocityEstimate(perSecond: .zero, confidence: 1, duration: duration, offset: offset, sampleCount: n)
    }

    /// The ring index of the `k`-th newest sample.
    @inline(__always)
    private func ring(_ k: Int) -> Int {
        let i = newest - k
        return i < 0 ? i + Self.historySize : i
    }

    /// The least-squares quadratics x ≈ b0 + b1 t + b2 t² and y likewise over the `n` newest
    /// samples, t in milliseconds relative to the newest (0 and below, which keeps the fit
    /// well conditioned): b1 of each, the slope at the newest sample, and the product of
    /// their coefficients of determination.
    ///
    /// The basis 1, t, t² is orthogonalized over the samples' times (the discrete orthogonal
    /// polynomials p0 = 1, p1 = t - a1, p2 = (t - a2) p1 - b1: Gram-Schmidt, as Flutter's QR
    /// solver, in a few passes of scalar sums, allocating nothing), so each coefficient is a
    /// projection; the slope at t = 0 is c1 p1'(0) + c2 p2'(0) = c1 - c2 (a1 + a2). Nil when
    /// the times are too close together for a quadratic (a basis vector's norm below 1e-6).
    private func fitQuadratic(count n: Int, newestTime: Int64) -> (slopeX: Double, slopeY: Double, confidence: Double)? {
        // Spans: indexing the inline arrays themselves copies them (measured: 6,500
        // instructions of memcpy per estimate).
        let times = self.times.span, xs = self.xs.span, ys = self.ys.span
        @inline(__always) func t(_ k: Int) -> Double { Double(times[ring(k)] - newestTime) / 1000 }
        let count = Double(n)
        var sumT = 0.0, meanX = 0.0, meanY = 0.0
        for k in 0..<n {
            sumT += t(k)
            meanX += xs[ring(k)]
            meanY += ys[ring(k)]
        }
        let a1 = sumT / count
        meanX /= count
        meanY /= count
        var norm1 = 0.0, tNorm1 = 0.0
        for k in 0..<n {
            let tk = t(k)
            let p1 = tk - a1
            norm1 += p1 * p1
            tNorm1 += tk * p1 * p1
        }
        if norm1.squareRoot() < 0.000001 { return nil }
        let a2 = tNorm1 / norm1
        let b1 = norm1 / count
        var norm2 = 0.0, x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for k in 0..<n {
            let tk = t(k)
            let p1 = tk - a1
            let p2 = (tk - a2) * p1 - b1
            let x = xs[ring(k)], y = ys[ring(k)]
            norm2 += p2 * p2
            x1 += x * p1
            x2 += x * p2
            y1 += y * p1
            y2 += y * p2
        }
        if norm2.squareRoot() < 0.000001 { return nil }
        let cx1 = x1 / norm1, cx2 = x2 / norm2, cy1 = y1 / norm1, cy2 = y2 / norm2
        // Coefficients of determination: 1 - residual / total, 1 when there is no spread.
        var residualX = 0.0, totalX = 0.0, residualY = 0.0, totalY = 0.0
        for k in 0..<n {
            let tk = t(k)
            let p1 = tk - a1
            let p2 = (tk - a2) * p1 - b1
            let dx = xs[ring(k)] - meanX, dy = ys[ring(k)] - meanY
            let ex = dx - cx1 * p1 - cx2 * p2, ey = dy - cy1 * p1 - cy2 * p2
            residualX += ex * ex
            totalX += dx * dx
            residualY += ey * ey
            totalY += dy * dy
        }
        let confidenceX = totalX <= 0.000001 ? 1 : max(0, 1 - residualX / totalX)
        let confidenceY = totalY <= 0.000001 ? 1 : max(0, 1 - residualY / totalY)
        return (cx1 - cx2 * (a1 + a2), cy1 - cy2 * (a1 + a2), confidenceX * confidenceY)
    }
}
