package ranklab;

import java.lang.reflect.Method;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Starts an OpenSearch cluster of N nodes in this JVM (codelibs' OpenSearchRunner) with the k-NN
 * plugin from the class path, prints "ranklab-engine ready URL" on standard output and runs until
 * standard input ends, SIGTERM or SIGINT (Stopper). Flags: --nodes N, --dir DIR.
 *
 * <p>OpenSearch 3 needs Java 21, whose class files Java 17's compiler cannot read, so this class
 * reaches the runner by reflection: it compiles with the JDK 17 that builds the Solr launcher and
 * runs on any Java 21+ runtime. Each node's settings (ports on 127.0.0.1, discovery) are written to
 * its config/opensearch.yml, which the runner reads; the runner gives node i (from 1) the HTTP port
 * -baseHttpPort + i, so the HTTP ports are consecutive free ones; transport ports are free ones.
 */
public final class OpenSearchLauncher {
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable t) {
      Stopper.fail(t);
    }
  }

  private static void run(String[] args) throws Exception {
    int nodes = 1;
    String dir = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--dir" -> dir = args[++i];
        default -> throw new IllegalArgumentException("unknown flag " + args[i]);
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--dir is required");
    }
    Stopper.watch();
    int http = consecutiveFreePorts(nodes);
    int[] transport = new int[nodes];
    for (int i = 0; i < nodes; i++) {
      int p;
      do {
        p = freePort(http, nodes);
      } while (contains(transport, i, p));
      transport[i] = p;
    }
    StringBuilder seeds = new StringBuilder();
    for (int p : transport) {
      seeds.append(seeds.length() == 0 ? "" : ", ").append("\"127.0.0.1:").append(p).append('"');
    }
    for (int i = 0; i < nodes; i++) {
      Path conf = Paths.get(dir, "node_" + (i + 1), "config");
      Files.createDirectories(conf);
      String yml = "network.host: 127.0.0.1\ntransport.port: " + transport[i] + "\n"
          + (nodes > 1 ? "discovery.seed_hosts: [" + seeds + "]\n" : "");
      Files.writeString(conf.resolve("opensearch.yml"), yml, StandardCharsets.UTF_8);
    }
    Class<?> c = Class.forName("org.codelibs.opensearch.runner.OpenSearchRunner");
    Object runner = c.getConstructor().newInstance();
    c.getMethod("setMaxHttpPort", int.class).invoke(runner, -1);
    String[] conf = {"-basePath", dir, "-numOfNode", String.valueOf(nodes), "-baseHttpPort", String.valueOf(http - 1),
        "-clusterName", "ranklab", "-pluginTypes", "org.opensearch.knn.plugin.KNNPlugin"};
    Method build = c.getMethod("build", String[].class);
    Stopper.onStop(() -> {
      try {
        c.getMethod("close").invoke(runner);
      } catch (Exception e) {
        // halting anyway
      }
    });
    build.invoke(runner, (Object) conf);
    // The cluster is ready when its health is yellow: the runner waits 30 s at a time, which a
    // loaded machine can exceed while the nodes find each other; keep asking for 5 minutes.
    Method yellow = c.getMethod("ensureYellow", String[].class);
    for (long deadline = System.nanoTime() + 300_000_000_000L; ; ) {
      try {
        yellow.invoke(runner, (Object) new String[0]);
        break;
      } catch (java.lang.reflect.InvocationTargetException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Stopper.say("waiting for the cluster's health: " + e.getCause());
      }
    }
    Stopper.ready("http://127.0.0.1:" + http);
  }

  /** Returns the first of n consecutive ports that were free a moment ago. */
  private static int consecutiveFreePorts(int n) throws Exception {
    for (int attempt = 0; attempt < 100; attempt++) {
      int base;
      try (ServerSocket s = new ServerSocket(0)) {
        base = s.getLocalPort();
      }
      if (base + n > 65535) {
        continue;
      }
      boolean free = true;
      for (int p = base + 1; p < base + n && free; p++) {
        try (ServerSocket s = new ServerSocket(p)) {
          // free
        } catch (Exception e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IllegalStateException("no " + n + " consecutive free ports");
  }

  private static boolean contains(int[] ports, int n, int p) {
    for (int i = 0; i < n; i++) {
      if (ports[i] == p) {
        return true;
      }
    }
    return false;
  }

  /** Returns a port that was free a moment ago, outside [from, from+n). */
  private static int freePort(int from, int n) throws Exception {
    while (true) {
      try (ServerSocket s = new ServerSocket(0)) {
        int p = s.getLocalPort();
        if (p < from || p >= from + n) {
          return p;
        }
      }
    }
  }
}
