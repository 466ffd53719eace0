package ranklab;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The stop rules of both launchers: the JVM ends when standard input ends (the parent process
 * died or closed the pipe) or on SIGTERM or SIGINT; the cluster's own shutdown gets 1.5 s, then
 * the JVM halts, so nothing is left running 2 s after the signal.
 */
final class Stopper {
  private static final PrintStream out = System.out;
  private static volatile Runnable stop = () -> {};

  private Stopper() {}

  /** Starts the thread that exits when standard input ends and installs the shutdown hook. */
  static void watch() {
    Thread in = new Thread(() -> {
      InputStream s = System.in;
      byte[] buf = new byte[256];
      try {
        while (s.read(buf) >= 0) {
          // anything the parent writes is ignored
        }
      } catch (Exception e) {
        // the pipe broke: the parent is gone
      }
      System.exit(0);
    }, "ranklab-stdin");
    in.setDaemon(true);
    in.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      Thread halt = new Thread(() -> {
        try {
          Thread.sleep(1500);
        } catch (InterruptedException e) {
          return;
        }
        Runtime.getRuntime().halt(0);
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

  /** Prints the line the Go side waits for. */
  static void ready(String url) {
    out.println("ranklab-engine ready " + url);
    out.flush();
  }
}
