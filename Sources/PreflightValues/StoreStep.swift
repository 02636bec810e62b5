/// The steps of the store's round trip: a small probe written, read back, deleted.
package enum StoreStep: String, Sendable, Codable {
    case write, read, verify, delete
}
