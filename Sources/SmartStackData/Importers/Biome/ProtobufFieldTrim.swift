/// Leaves the length-delimited fields over a size out of a protobuf message before it is
/// decoded, so a record with one 100 MB field costs no copy of it (`BiomeImporter`: an
/// archived interaction over 16 MiB is counted as not decoded, not copied twice).
///
/// Only the top level is walked: a key (varint), then the value its wire type gives
/// (varint, 8 bytes, length-delimited, 4 bytes). A message that does not walk cleanly
/// (a group, a bad wire type, a length past the end) is returned whole, for the decoder
/// to refuse as it did before.
enum ProtobufFieldTrim {
  /// `message` without its length-delimited fields longer than `limit` bytes, and the
  /// numbers of the fields left out (in message order); `message` copied whole and `[]`
  /// when none is too long or it does not walk cleanly.
  static func trimming(_ message: ArraySlice<UInt8>, limit: Int) -> (bytes: [UInt8], dropped: [Int]) {
    var kept: [Range<Int>] = []
    var dropped: [Int] = []
    var i = message.startIndex
    func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while i < message.endIndex, shift < 64 {
        let byte = message[i]
        i += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }
    while i < message.endIndex {
      let start = i
      guard let key = varint() else { return (Array(message), []) }
      switch key & 7 {
      case 0: guard varint() != nil else { return (Array(message), []) }
      case 1, 5:
        let width = key & 7 == 1 ? 8 : 4
        guard message.endIndex - i >= width else { return (Array(message), []) }
        i += width
      case 2:
        guard let length = varint(), length <= UInt64(message.endIndex - i) else { return (Array(message), []) }
        i += Int(length)
        if Int(length) > limit {
          dropped.append(Int(key >> 3))
          continue
        }
      default: return (Array(message), [])
      }
      kept.append(start..<i)
    }
    guard !dropped.isEmpty else { return (Array(message), []) }
    var bytes: [UInt8] = []
    for range in kept { bytes += message[range] }
    return (bytes, dropped)
  }
}
