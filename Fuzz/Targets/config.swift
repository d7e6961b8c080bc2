// libFuzzer target: the experiment config reader (ExperimentConfig.read(bytes:file:)).
// The first byte (the zone byte of every target) is skipped: a config names its zones.
// Relative paths resolve against a folder that does not exist, so no file is read.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (_, bytes) = fuzzInput(data, size)
  expectReaderErrors(allowed: { $0 is ExperimentUsageError || $0 is InputFileError }) {
    _ = try ExperimentConfig.read(bytes: bytes, file: "/nonexistent-fuzz-folder/fuzz.json")
  }
  return 0
}
