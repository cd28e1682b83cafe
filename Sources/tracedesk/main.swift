print("tracedesk")
