// libFuzzer target: the ISO 8601 timestamp parser. Any input must parse or give a
// ParseError whose offset lies inside the input; a parsed absolute instant must format
// and parse back to the same instant.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISO8601(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let buffer = UnsafeBufferPointer(start: data, count: size)
  switch ISO8601.parse(buffer) {
  case .failure(let error):
    if error.offset < 0 || error.offset > size {
      fatalError("error offset \(error.offset) outside 0...\(size)")
    }
  case .success(let timestamp):
    if case .absolute(let instant) = timestamp {
      let text = ISO8601.format(instant)
      guard case .success(.absolute(let again)) = ISO8601.parse(text), again == instant else {
        fatalError("\(text) does not parse back to \(instant)")
      }
    }
  }
  return 0
}
