import KioskWords
import Failures
import ShotValues

/// A shot's notes at the command line: the operator's sentences (which name configuration keys,
/// as `recorder shoot --set` takes them), with a failure inside in the command line's own words.
extension CLIWords {
    static func note(_ note: ShotNote) -> String {
        OperatorWords.note(note, fault: fault)
    }

    /// A failure a shot recorded, as the command line words that error anywhere.
    static func fault(_ fault: ShotFault) -> String {
        switch fault {
        case .storage(let error): message(.storage(error))
        // (with the command line's pointer to `recorder devices` where the list helps)
        case .microphone(let error): message(.audio(error))
        case .media, .system, .other: OperatorWords.fault(fault)
        }
    }
}
