extension BoothProblem: Encodable {
    private enum Keys: String, CodingKey {
        case problem, seconds, lastError, format, fps, nominalFPS, dropped, delivered, queued, oldestSeconds, freeBytes, hoursLeft, count,
             causes, errors, checks
    }

    /// `{"problem": name, ...its numbers}`: what scripts decide on (`--json`, the fleet page).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .problem)
        switch self {
        case .offline(let seconds), .cameraMissing(let seconds):
            try c.encode(seconds, forKey: .seconds)
        case .heartbeatNotWritten(let seconds, let lastError):
            try c.encode(seconds, forKey: .seconds)
            try c.encodeIfPresent(lastError, forKey: .lastError)
        case .unreadable(let format):
            try c.encodeIfPresent(format, forKey: .format)
        case .cameraSlow(let fps, let nominal, let dropped, let delivered):
            try c.encode(fps, forKey: .fps)
            try c.encode(nominal, forKey: .nominalFPS)
            try c.encode(dropped, forKey: .dropped)
            try c.encode(delivered, forKey: .delivered)
        case .storeFailing(let queued, let oldest, let lastError):
            try c.encode(queued, forKey: .queued)
            try c.encode(oldest, forKey: .oldestSeconds)
            try c.encodeIfPresent(lastError, forKey: .lastError)
        case .diskLow(let free, let hours):
            try c.encodeIfPresent(free, forKey: .freeBytes)
            try c.encodeIfPresent(hours, forKey: .hoursLeft)
        case .mailRefused(let count):
            try c.encode(count, forKey: .count)
        case .outOfService(let causes):
            try c.encode(causes, forKey: .causes)
        case .doctorFound(let errors, let checks):
            try c.encode(errors, forKey: .errors)
            try c.encode(checks, forKey: .checks)
        case .clockNotSynchronised, .shotFailed:
            break
        }
    }
}
