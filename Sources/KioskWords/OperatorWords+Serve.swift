import Failures

extension OperatorWords {
    static func gallery(_ failure: GalleryFailure) -> String {
        switch failure {
        case .badEventName(let name, let limit):
            "\"\(name)\" cannot be an event's name: give 1 to \(limit) characters, no line breaks."
        case .emptyWindow(let since, let until):
            "no post can be made from \(since) to \(until): the window's start must be before its end."
        case .expiresOutOfRange(let days, let limit):
            "a gallery opening \(days) days is out of range: give 1 to \(limit) days."
        case .badKioskID(let id):
            "\"\(id)\" is not a booth's kiosk.id: lowercase letters, digits and dashes, as the booth's kiosk.id is set."
        case .noSuchGallery(let token, let store):
            "no gallery in \(store) has the token \(token): it was never made there, it was revoked, or the link was mistyped."
        case .cannotRead:
            "the galleries cannot be read from the store: \(cause(failure))"
        case .cannotWrite:
            "the gallery cannot be written to the store: \(cause(failure))"
        case .reelUnreadable(let path, let code):
            "the reel \(path) cannot be read: \(errno(code)). Give the highlight reel's own video file."
        case .postChanged(let id):
            "post \(id)'s video in the store is not what its metadata says (it was deleted or replaced meanwhile): the download stopped rather than send it wrong. Load the gallery again."
        case .cannotWriteCard(let path, let code):
            "cannot write the card at \(path): \(errno(code)). Choose a new file in a writable folder."
        case .noShareBase:
            "a gallery's link opens on the share links' public name, and none is set: set share.base_url (https://NAME/s/{token}, the name the share servers answer for)."
        case .linkTooLong(let link):
            "the link \(link) is too long for a QR code: shorten share.base_url's name."
        }
    }

    static func serve(_ failure: ServeFailure) -> String {
        switch failure {
        case .addressInUse(let address, let port):
            "\(address) is already in use by another program (`ss -ltnp 'sport = :\(port)'` shows which). Stop it, or set serve.listen to another port."
        case .notAnAddressHere(let host):
            "\(host) is not an address of this machine. Set serve.listen to one of its addresses, 127.0.0.1 (behind the proxy) or 0.0.0.0."
        case .privilegedPort(let host, let port):
            "port \(port) needs privileges this user lacks (ports below 1024). Use a port from 1024 up behind the proxy, e.g. serve.listen = \(host):8090."
        case .serverStopped(let reason, let address):
            "the share server stopped: \(reason) (listening on \(address))."
        case .fleetTokenEmpty(let path, let origin):
            "serve.token_file = \(path) (from \(origin)) is empty, so recorder serve serves no fleet page (/fleet). Put the operator's token in it (head -c 24 /dev/urandom | base64 > \(path); chmod 600 \(path)), or unset serve.token_file to go without."
        }
    }
}
