import Cascade
import CascadeInspector
import Foundation

// cascade-inspect: turns a recording (written by `--record FILE` or `recording.write(to:)`)
// into the inspector, one HTML file to open in a browser.

let usage = """
  usage: cascade-inspect RECORDING.json [-o PAGE.html] [--title TEXT]

    RECORDING.json   a recording written by an example's --record FILE, or by
                     Recorder(inspectable: true) and recording.write(to:)
    -o PAGE.html     where to write the page (default: the recording's path, ending in .html)
    --title TEXT     the page's title (default: the state's type)
  """

/// Prints `message` and the usage on standard error, and exits 2.
func fail(_ message: String, showingUsage: Bool = true) -> Never {
  let text = "cascade-inspect: \(message)" + (showingUsage ? "\n\n\(usage)" : "") + "\n"
  FileHandle.standardError.write(Data(text.utf8))
  exit(2)
}

/// Standard input, output and error that were closed (`cascade-inspect … >&-`) are opened on
/// `/dev/null`, so that no file this program opens takes their number and receives what is
/// printed.
func keepStandardDescriptorsTaken() {
  for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
    let opened = open("/dev/null", O_RDWR)
    if opened >= 0, opened != descriptor {
      dup2(opened, descriptor)
      close(opened)
    }
  }
}
keepStandardDescriptorsTaken()

var input: String?
var output: String?
var title: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--help", "-h":
    print(usage)
    exit(0)
  case "-o", "--output", "--title":
    guard let value = arguments.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
      fail("\(argument) needs a value")
    }
    if argument == "--title" {
      guard title == nil else { fail("--title is given twice; give it once") }
      title = value
    } else {
      guard output == nil else { fail("\(argument) is given twice; give it once") }
      output = value
    }
  default:
    guard !argument.hasPrefix("-") || argument == "-" else {
      fail("unknown option '\(argument)'")
    }
    guard input == nil else {
      fail("one recording at a time: '\(input ?? "")' and '\(argument)' were both given")
    }
    input = argument
  }
}
guard let input else { fail("which recording? give its path") }

let inputURL = URL(fileURLWithPath: input)
let session: RecordedSession
do { session = try RecordedSession(contentsOf: inputURL) } catch {
  fail("\(error)", showingUsage: false)
}
let outputURL =
  output.map { URL(fileURLWithPath: $0) }
  ?? inputURL.deletingPathExtension().appendingPathExtension("html")
// The page never replaces the recording it was made from (`-o` naming it, by any path or
// link, or a recording whose name already ends in .html).
var recordingFile = stat()
var pageFile = stat()
if stat(inputURL.path, &recordingFile) == 0, stat(outputURL.path, &pageFile) == 0,
  recordingFile.st_dev == pageFile.st_dev, recordingFile.st_ino == pageFile.st_ino
{
  fail(
    "the page would replace the recording \(input); name another file with -o",
    showingUsage: false)
}
let page: String
do {
  page = try InspectorPage.html(for: session, title: title)
} catch {
  fail("\(error)", showingUsage: false)
}
// A link is written through and a pipe, a FIFO or a terminal written directly: see OutputFile.
var existing = stat()
let toRegularFile = stat(outputURL.path, &existing) != 0 || existing.st_mode & S_IFMT == S_IFREG
do {
  try OutputFile.write(Data(page.utf8), to: outputURL.path)
} catch {
  fail("\(error)", showingUsage: false)
}
let kilobytes = (page.utf8.count + 1023) / 1024
let summary =
  "cascade-inspect: wrote \(outputURL.path) (\(session.steps.count) steps, \(kilobytes) KB)"
// A page written to standard output (`-o /dev/stdout`) is not followed by the summary there.
if toRegularFile {
  print(summary)
} else {
  FileHandle.standardError.write(Data((summary + "\n").utf8))
}
