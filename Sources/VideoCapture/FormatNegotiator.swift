internal import SystemSupport
package import MediaValues
/// Picks the best format, size and frame rate a device offers for a request.
///
/// Closeness to the asked size and rate comes first, then native over libv4l-emulated formats,
/// then the lowest CPU cost (`PixelFormat.cpuCost`), so `--format auto` on a webcam that offers
/// YUYV only up to 640x480 but MJPEG at 1280x720 picks MJPEG for a 720p request.
package enum FormatNegotiator {
    package static func choose(from formats: [FormatCapability], request: CaptureRequest,
                              device: String) throws(CaptureError) -> CaptureChoice {
        let usable = formats.filter { $0.pixelFormat != nil }
        var candidates = usable
        if let wanted = request.pixelFormat {
            candidates = usable.filter { $0.pixelFormat == wanted || ($0.pixelFormat == .jpeg && wanted == .mjpeg) }
            if candidates.isEmpty {
                let offered = usable.compactMap(\.pixelFormat?.name)
                let list = offered.isEmpty ? "none that recorder can read" : offered.joined(separator: ", ")
                throw CaptureError(.unsupportedFormat, device: device, operation: "negotiate",
                                   detail: "the camera does not offer the format \(wanted.name). It offers: \(list).")
            }
        }
        if candidates.isEmpty {
            let offered = formats.map(\.fourcc).joined(separator: ", ")
            throw CaptureError(.unsupportedFormat, device: device, operation: "negotiate",
                               detail: "none of the camera's formats (\(offered.isEmpty ? "none listed" : offered)) can be recorded. Check that the device is a camera, or report the formats in an issue.")
        }

        let wantSize = request.size ?? CaptureRequest.defaultSize
        // (the fastest: the closest to a rate no camera reaches, at the size chosen first)
        let wantRate = request.fastest ? CaptureRequest.fastestFrameRate : request.frameRate ?? CaptureRequest.defaultFrameRate
        var best: (score: (Double, Double, Int, Int), choice: CaptureChoice)?
        for format in candidates {
            guard let pixelFormat = format.pixelFormat else { continue }
            let (size, rate) = bestMatch(format.sizes, size: wantSize, rate: wantRate)
            let score = (sizeDistance(size, wantSize), rateDistance(rate, wantRate),
                         format.isEmulated ? 1 : 0, pixelFormat.cpuCost)
            let choice = CaptureChoice(pixelFormat: pixelFormat, size: size, frameRate: rate,
                                       isEmulated: format.isEmulated, differences: [])
            if best == nil || score < best!.score { best = (score, choice) }
        }
        var choice = best!.choice
        choice.differences = differences(choice, request: request)
        return choice
    }

    /// Each explicitly requested value the choice does not meet.
    package static func differences(_ choice: CaptureChoice, request: CaptureRequest) -> [CaptureChoice.Difference] {
        var differences: [CaptureChoice.Difference] = []
        if let size = request.size, size != choice.size {
            differences.append(.closestSize(asked: size, offered: choice.size))
        }
        if !request.fastest, let rate = request.frameRate, abs(rate.value - choice.frameRate.value) > 0.01 {
            differences.append(.closestRate(asked: rate, offered: choice.frameRate, size: choice.size))
        }
        return differences
    }

    static func bestMatch(_ options: SizeOptions, size: FrameSize, rate: FrameRate) -> (FrameSize, FrameRate) {
        switch options {
        case .unknown:
            return (size, rate)
        case .range(let lo, let hi, let step, let rates):
            let w = clampStep(size.width, lo.width, hi.width, step.width)
            let h = clampStep(size.height, lo.height, hi.height, step.height)
            return (FrameSize(width: w, height: h), bestRate(rates, rate))
        case .discrete(let list):
            guard !list.isEmpty else { return (size, rate) }
            let ranked = list.min { a, b in
                let da = (sizeDistance(a.size, size), rateDistance(bestRate(a.rates, rate), rate))
                let db = (sizeDistance(b.size, size), rateDistance(bestRate(b.rates, rate), rate))
                return da < db
            }!
            return (ranked.size, bestRate(ranked.rates, rate))
        }
    }

    static func bestRate(_ options: RateOptions, _ rate: FrameRate) -> FrameRate {
        switch options {
        case .unknown: return rate
        case .range(let lo, let hi):
            if rate.value < lo.value { return lo }
            if rate.value > hi.value { return hi }
            return rate
        case .discrete(let rates):
            return rates.min { rateDistance($0, rate) < rateDistance($1, rate) } ?? rate
        }
    }

    /// 0 for an exact match; otherwise the relative area difference plus the aspect-ratio difference.
    static func sizeDistance(_ a: FrameSize, _ b: FrameSize) -> Double {
        if a == b { return 0 }
        let area = abs(Double(a.pixels - b.pixels)) / Double(max(b.pixels, 1))
        let aspect = abs(Double(a.width) / Double(max(a.height, 1)) - Double(b.width) / Double(max(b.height, 1)))
        return area + aspect
    }

    /// Missing rate is worse than surplus rate: a camera can always be recorded slower, not faster.
    static func rateDistance(_ a: FrameRate, _ b: FrameRate) -> Double {
        let diff = a.value - b.value
        return diff < 0 ? -diff * 2 : diff
    }

    static func clampStep(_ value: Int, _ lo: Int, _ hi: Int, _ step: Int) -> Int {
        let clamped = min(max(value, lo), hi)
        let s = max(step, 1)
        return lo + ((clamped - lo) / s) * s
    }
}
