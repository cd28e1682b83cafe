import Testing

@testable import DeskConsole
@testable import TerminalKit

/// The export prompt the tracer and the dashboard share, on values: a key in, the prompt and
/// the step out.
@Suite("Export prompt")
struct ExportPromptTests {
    static func typed(_ text: String) -> ExportPrompt {
        var prompt = ExportPrompt(path: "")
        for character in text { _ = prompt.handle(.char(character), nil) }
        return prompt
    }

    @Test("typing edits the path and clears the problem shown")
    func typing() {
        var prompt = Self.typed("out.cs")
        prompt.error = "something"
        #expect(prompt.handle(.char("v"), nil) == .stay)
        #expect(prompt.path.text == "out.csv")
        #expect(prompt.error == nil)
    }

    @Test("back cancels; submit asks to write without overwriting")
    func backAndSubmit() {
        var prompt = Self.typed("out.csv")
        #expect(prompt.handle(.escape, .back) == .cancel)
        #expect(prompt.handle(.enter, .submit) == .write(overwrite: false))
    }

    @Test("a path that is empty or a folder is refused with what to type; a good one starts the writing")
    func start() {
        var empty = Self.typed("  ")
        #expect(empty.start(defaultPath: "./a.csv", example: "a.csv") == nil)
        #expect(empty.error == "type the file to write, e.g. ./a.csv")
        #expect(!empty.writing)
        var folder = Self.typed("/tmp/")
        #expect(folder.start(defaultPath: "./a.csv", example: "a.csv") == nil)
        #expect(folder.error == "/tmp/ is a folder: add a file name, e.g. a.csv")
        var good = Self.typed(" /tmp/a.csv ")
        good.error = "old"
        #expect(good.start(defaultPath: "./a.csv", example: "a.csv") == "/tmp/a.csv")
        #expect(good.writing && good.error == nil)
    }

    @Test("while writing, keys are ignored")
    func writing() {
        var prompt = Self.typed("a.csv")
        _ = prompt.start(defaultPath: "./a.csv", example: "a.csv")
        let before = prompt
        #expect(prompt.handle(.char("x"), nil) == .stay)
        #expect(prompt.handle(.enter, .submit) == .stay)
        #expect(prompt == before)
    }

    @Test("an existing file is asked about: y overwrites; Enter on the default keeps it and says what to do next")
    func exists() {
        var prompt = Self.typed("a.csv")
        _ = prompt.start(defaultPath: "./a.csv", example: "a.csv")
        prompt.fileExists("a.csv")
        #expect(!prompt.writing)
        #expect(prompt.confirm != nil)
        var overwrite = prompt
        #expect(overwrite.handle(.char("y"), nil) == .write(overwrite: true))
        var kept = prompt
        #expect(kept.handle(.enter, .submit) == .stay)
        #expect(kept.confirm == nil)
        #expect(kept.error == "kept the existing file: type another name, or press Enter again to be asked again")
        #expect(kept.handle(.enter, .submit) == .write(overwrite: false))
    }

    @Test("a failed write shows why and lets the path be changed")
    func failed() {
        var prompt = Self.typed("a.csv")
        _ = prompt.start(defaultPath: "./a.csv", example: "a.csv")
        prompt.failed("the folder does not exist")
        #expect(!prompt.writing)
        #expect(prompt.error == "the folder does not exist")
        #expect(prompt.handle(.char("x"), nil) == .stay)
        #expect(prompt.path.text == "a.csvx")
    }

    @Test("it draws its title, summary, path and keys")
    func render() {
        let prompt = Self.typed("a.csv")
        var buffer = Buffer(width: 80, height: 24)
        prompt.render(
            title: "Export it", summary: "Three rows.", into: &buffer, area: Rect(x: 0, y: 0, width: 80, height: 24),
            ascii: false)
        let text = buffer.lines.joined(separator: "\n")
        #expect(text.contains("Export it"))
        #expect(text.contains("Three rows."))
        #expect(text.contains("a.csv"))
        #expect(text.contains("Enter write · Esc cancel"))
    }
}
