import SmartStackBase

/// The context of a Biome folder (`BiomeImporter.read(_:name:context:)`): the records of
/// `BiomeContextStream`s, each a change of the device's one person at the SEGB record's
/// time (Cocoa seconds, truncated to milliseconds as `BiomeImporter.milliseconds(cocoa:)`
/// does; Biome stores no UTC offset, so no change has one).
///
/// | stream | record | change |
/// |---|---|---|
/// | `Device.Power.PluggedIn` | `starting` (field 1) 1 / 0 | `charging` `true` / `false` |
///
/// Every record of the streams is a change, a repeated state too (each is an event of
/// the stream, not a sample). Not changes, counted in `ImportedContext.unread`: a deleted
/// record or one of another state than written, a record without `starting`, and one
/// whose time is not an instant in 1970...2100. A written record whose CRC-32 is wrong,
/// whose payload is not a protobuf message or has a field over 16 MiB is a bad record,
/// listed with the donation streams' (`FILE: offset N: message`): the import fails unless
/// `skipBadRows`, which skips it, lists it in the warnings and counts it as unread. None
/// of this touches the donations, the visits or `counts`.
extension BiomeImporter.State {
  mutating func addContext(bytes: [UInt8], file: String, stream: BiomeContextStream) throws {
    let segb = try Self.segb(bytes, file: file)
    for record in segb.records {
      guard record.state == .written else {
        context?.unread += 1
        continue
      }
      if let problem = takeContext(record, of: segb, stream: stream) {
        contextBadRows += 1
        if problems.count < importer.limit {
          problems.append("\(TerminalText.escapingControls(file)): offset \(record.offset): \(problem)")
        }
      }
    }
  }

  /// Takes a written record of a context stream; returns its problem when it is a bad one.
  mutating func takeContext(_ record: SEGBRecord, of segb: SEGBFile, stream: BiomeContextStream) -> String? {
    if let problem = crcProblem(record) { return problem }
    let (payload, dropped) = ProtobufFieldTrim.trimming(
      segb.payload(record), limit: SQLiteDatabase.maximumValueBytes)
    if let field = dropped.first {
      return "field \(field) of the payload is over \(SQLiteDatabase.maximumValueBytes) bytes (16 MiB)"
    }
    switch stream {
    case .pluggedIn:
      guard let event = try? BiomeDevicePluggedInEvent(serializedBytes: payload) else {
        return "the payload (\(payload.count) bytes) is not a protobuf message of the \(stream.rawValue) stream"
      }
      guard event.hasStarting, let ms = BiomeImporter.milliseconds(cocoa: record.time) else {
        context?.unread += 1
        return nil
      }
      context?.add(at: ms, .charging, event.starting ? "true" : "false", offset: UTCOffset.none)
    }
    return nil
  }
}
