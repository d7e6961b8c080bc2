// libFuzzer target: the LSApp importer (tab-separated values), in the zone the first byte
// chooses (Fuzz/Support/FuzzInput.swift).
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzImport(data, size) { zone, skip, text in
    _ = try LSAppImporter(timeZone: zone, skipBadRows: skip).read(text, file: "fuzz.tsv")
  }
  return 0
}
