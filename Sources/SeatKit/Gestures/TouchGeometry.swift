/// Small computations shared by the built-in recognizers. All in layout space.
enum TouchGeometry {
    /// The centroid of `touches`, leaving out those whose ids are in `excluded`.
    static func centroid(_ touches: [TouchPoint], excluding excluded: [TouchPoint] = []) -> LayoutPoint? {
        var x = 0.0, y = 0.0, n = 0.0
        var i = 0
        while i < touches.count {
            let t = touches[i]
            i += 1
            var skip = false
            var j = 0
            while j < excluded.count {
                if excluded[j].id == t.id { skip = true }
                j += 1
            }
            if skip { continue }
            x += t.location.x
            y += t.location.y
            n += 1
        }
        return n > 0 ? LayoutPoint(x: x / n, y: y / n) : nil
    }

    /// The mean distance of the touches from their centroid (0 for fewer than two).
    static func span(_ touches: [TouchPoint]) -> Double {
        guard touches.count >= 2, let c = centroid(touches) else { return 0 }
        var total = 0.0
        var i = 0
        while i < touches.count {
            total += touches[i].location.vector(from: c).length
            i += 1
        }
        return total / Double(touches.count)
    }

    /// The mean displacement of the touches from where each went down.
    static func meanDisplacement(_ touches: [TouchPoint]) -> Vector {
        guard !touches.isEmpty else { return .zero }
        var dx = 0.0, dy = 0.0
        var i = 0
        while i < touches.count {
            dx += touches[i].location.x - touches[i].startLocation.x
            dy += touches[i].location.y - touches[i].startLocation.y
            i += 1
        }
        let n = Double(touches.count)
        return Vector(dx: dx / n, dy: dy / n)
    }

    /// The angle of the line from the first to the second touch, in radians, clockwise from
    /// the x axis (layout space has y down).
    static func angle(_ touches: [TouchPoint]) -> Double? {
        guard touches.count >= 2 else { return nil }
        let v = touches[1].location.vector(from: touches[0].location)
        return atan2Approx(v.dy, v.dx)
    }

    /// `a - b` brought into (-pi, pi].
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = a - b
        while d > Double.pi { d -= 2 * Double.pi }
        while d <= -Double.pi { d += 2 * Double.pi }
        return d
    }

    /// atan2 without Foundation: the core imports nothing.
    static func atan2Approx(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        // Reduce to |z| <= 1 and use a series that converges fast after halving the angle.
        let ax = abs(x), ay = abs(y)
        let swap = ay > ax
        let z = swap ? ax / ay : ay / ax
        var a = atanUnit(z)
        if swap { a = Double.pi / 2 - a }
        if x < 0 { a = Double.pi - a }
        return y < 0 ? -a : a
    }

    /// atan(z) for 0 <= z <= 1: two half-angle steps, then a Taylor series.
    private static func atanUnit(_ z: Double) -> Double {
        // atan(z) = 2 atan(z / (1 + sqrt(1 + z^2)))
        var t = z
        var factor = 1.0
        for _ in 0..<2 {
            t = t / (1 + (1 + t * t).squareRoot())
            factor *= 2
        }
        var sum = 0.0, term = t, k = 1.0
        let t2 = t * t
        for i in 0..<12 {
            sum += (i % 2 == 0 ? term : -term) / k
            term *= t2
            k += 2
        }
        return factor * sum
    }
}

extension Vector {
    /// This vector in layout units divided into millimetres (`unitsPerMillimetre` layout
    /// units each); zero when that is not positive.
    func perMillimetre(_ unitsPerMillimetre: Double) -> Vector {
        unitsPerMillimetre > 0 ? Vector(dx: dx / unitsPerMillimetre, dy: dy / unitsPerMillimetre) : .zero
    }
}
