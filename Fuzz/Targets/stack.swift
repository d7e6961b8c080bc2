// libFuzzer target: the stack reader (StackSpec.read). The first byte is the zone byte of
// every target; a stack has no times, so it is only skipped.
import SmartStackKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStack(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (_, bytes) = fuzzInput(data, size)
  expectReaderErrors { _ = try StackSpec.read(bytes: bytes, file: "fuzz.json") }
  return 0
}
