// libFuzzer target: the generic app-events importer (CSV), in the zone the first byte
// chooses (Fuzz/Support/FuzzInput.swift).
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzImport(data, size) { zone, skip, text in
    _ = try AppEventsImporter(timeZone: zone, skipBadRows: skip).read(text, file: "fuzz.csv")
  }
  return 0
}
