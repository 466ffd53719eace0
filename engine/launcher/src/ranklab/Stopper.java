package ranklab;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The stop rules of both launchers: the JVM ends when standard input ends (the parent process
 * died or closed the pipe) or on SIGTERM or SIGINT; the cluster's own shutdown gets 1.5 s, then
 * the JVM halts, so nothing is left running 2 s after the signal.
 */
final class Stopper {
  // Own copies of standard output and error: OpenSearch's log configuration, applied again for
  // each node, closes the console streams it took over, so the ready line and these messages go
  // through file descriptors of their own (Linux's /proc/self/fd; System.out/err elsewhere).
  private static final PrintStream out = reopen(1, System.out);
  private static final PrintStream err = reopen(2, System.err);

  private static PrintStream reopen(int fd, PrintStream fallback) {
    try {
      return new PrintStream(new java.io.FileOutputStream("/proc/self/fd/" + fd), true, "UTF-8");
    } catch (Exception e) {
      return fallback;
    }
  }
  private static volatile Runnable stop = () -> {};
  private static volatile int status = 0;

  private Stopper() {}

  /** Starts the thread that exits when standard input ends and installs the shutdown hook. */
  static void watch() {
    Thread in = new Thread(() -> {
      InputStream s = System.in;
      byte[] buf = new byte[256];
      String why = "standard input ended (the parent closed it or died)";
      try {
        while (s.read(buf) >= 0) {
          // anything the parent writes is ignored
        }
      } catch (Exception e) {
        why = "standard input failed (" + e + ")";
      }
      err.println("ranklab-engine: stopping: " + why);
      err.flush();
      System.exit(0);
    }, "ranklab-stdin");
    in.setDaemon(false); // it keeps the JVM alive: OpenSearch's own threads are daemons
    in.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      say("shutting down");
      Thread halt = new Thread(() -> {
        try {
          Thread.sleep(1500);
        } catch (InterruptedException e) {
          return;
        }
        Runtime.getRuntime().halt(status);
      }, "ranklab-halt");
      halt.setDaemon(true);
      halt.start();
      stop.run();
    }, "ranklab-stop"));
  }

  /** Sets what shutting down does (the cluster's own shutdown). */
  static void onStop(Runnable r) {
    stop = r;
  }

  /** Reports why the launcher failed (with its stack trace) and exits with status 1. */
  static void fail(Throwable t) {
    if (t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null) {
      t = t.getCause();
    }
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    say("the cluster did not start: " + w);
    status = 1;
    System.exit(1);
  }

  /** Prints a line on the original standard error (OpenSearch sends System.err to its log). */
  static void say(String msg) {
    err.println("ranklab-engine: " + msg);
    err.flush();
  }

  /** Prints the line the Go side waits for. */
  static void ready(String url) {
    out.println("ranklab-engine ready " + url);
    out.flush();
  }
}
