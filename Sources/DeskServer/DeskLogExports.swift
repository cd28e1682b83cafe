// The server's log writer is part of what it offers: whoever runs a server (tracedesk serve, the
// tests) sets it up with `LogWriter.ignoreBrokenPipes()` and reads its failures. It lives in
// DeskLog so that the command line can write its errors the same way without the server.
@_exported import DeskLog
