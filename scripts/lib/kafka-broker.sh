#!/usr/bin/env bash
# A single-node Apache Kafka (KRaft: broker and controller in one JVM) on 127.0.0.1, for the
# tests of <bifrons/kafka.hpp> (the kafka stage of scripts/test, tests/kafka/).
#
#   kafka-broker.sh fetch   DIR   the broker's jars from Maven Central into build/kafka (once: cached)
#   kafka-broker.sh start   DIR   fetch, format DIR/data (first start only), start, wait until ready
#   kafka-broker.sh stop    DIR   stop (SIGTERM, then SIGKILL after 20 s)
#   kafka-broker.sh restart DIR   stop, then start on the same ports and data
#   kafka-broker.sh bootstrap DIR print host:port of the running broker
#
# The jars are org.apache.kafka:kafka_2.13 and its runtime dependencies, resolved by Debian's Maven
# from a generated pom (Maven does the version mediation and scopes; a resolver of our own would
# have to redo them). The JVM is small (-Xmx384m, serial GC) and lives at most KAFKA_MAX_LIFETIME
# seconds (default 900) under timeout(1), so no broker outlives a run that died before its stop.
# DIR holds one broker's state: ports, configuration, data, log, pid.
# Environment: KAFKA_VERSION (default 4.4.0), JAVA (default java), KAFKA_MAX_LIFETIME,
#              KAFKA_JARS (default: build/kafka of this repository: the jar cache).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KAFKA_VERSION=${KAFKA_VERSION:-4.4.0}
KAFKA_JARS=${KAFKA_JARS:-$ROOT/build/kafka}
LOG4J_VERSION=2.24.3
JAVA=${JAVA:-java}
KAFKA_MAX_LIFETIME=${KAFKA_MAX_LIFETIME:-900}
READY_TIMEOUT=${KAFKA_READY_TIMEOUT:-90}

die() { echo "kafka-broker: $*" >&2; exit 1; }

LIBS=$KAFKA_JARS/libs-$KAFKA_VERSION

fetch() {
  local dir=$KAFKA_JARS libs=$LIBS
  if [[ -f $libs/.complete ]]; then return 0; fi
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  mkdir -p "$dir/pom"
  # log4j-slf4j-impl: Kafka logs through slf4j, and the readiness check reads its log.
  cat >"$dir/pom/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.bifrons.test</groupId>
  <artifactId>kafka-broker</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
  rm -rf "$libs"
  echo "==> fetching kafka_2.13 $KAFKA_VERSION and its dependencies into $libs"
  mvn -B -q -Dstyle.color=never -f "$dir/pom/pom.xml" -Dmaven.repo.local="$dir/m2" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$libs"
  # The jars are in $libs now: Maven's own repository (its plugins, the poms) is not needed again.
  rm -rf "$dir/m2"
  touch "$libs/.complete"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pid_alive() { [[ -f $1/broker.pid ]] && kill -0 "$(cat "$1/broker.pid")" 2>/dev/null; }

configure() {
  local dir=$1 broker_port controller_port
  if [[ -f $dir/ports ]]; then
    read -r broker_port controller_port <"$dir/ports"
  else
    broker_port=$(free_port)
    controller_port=$(free_port)
    while [[ $controller_port == "$broker_port" ]]; do controller_port=$(free_port); done
    echo "$broker_port $controller_port" >"$dir/ports"
  fi
  cat >"$dir/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$broker_port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$broker_port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
num.network.threads=2
num.io.threads=2
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
  cat >"$dir/log4j2.properties" <<'EOF'
rootLogger.level=INFO
rootLogger.appenderRef.out.ref=out
appender.out.type=Console
appender.out.name=out
appender.out.layout.type=PatternLayout
appender.out.layout.pattern=[%d] %p %m (%c)%n
logger.kafka.name=kafka
logger.kafka.level=INFO
logger.apache.name=org.apache.kafka
logger.apache.level=WARN
EOF
}

# The JVM's command line; the arguments follow.
java_command() {
  local dir=$1
  JAVA_COMMAND=("$JAVA" -Xmx384m -Xms64m -XX:+UseSerialGC -Xss512k -Djava.awt.headless=true
    -Dlog4j2.configurationFile="$dir/log4j2.properties" -cp "$LIBS/*")
}

start() {
  local dir=$1
  fetch
  if pid_alive "$dir"; then die "a broker of $dir is running (pid $(cat "$dir/broker.pid"))"; fi
  configure "$dir"
  if [[ ! -f $dir/data/meta.properties ]]; then
    local cluster_id
    # A cluster id is 16 random bytes in URL-safe base64 without padding. One that begins with
    # '-' (a '+' of base64, 1 in 64) was taken for an option by the storage tool's argument
    # parser ("--cluster-id: expected one argument"), and the stage failed: the id is passed as
    # --cluster-id=ID, and drawn again until it begins otherwise, as Kafka's own ids do.
    cluster_id=-
    while [[ $cluster_id == -* ]]; do
      cluster_id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)
    done
    java_command "$dir"
    "${JAVA_COMMAND[@]}" kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$dir/server.properties" \
      >"$dir/format.log" 2>&1 || { cat "$dir/format.log" >&2; die "formatting $dir/data failed"; }
  fi
  : >"$dir/broker.log"
  # setsid: the broker is not in the caller's process group, so a ctest timeout that kills the
  # test does not take the broker down mid-restart; timeout bounds its life all the same.
  java_command "$dir"
  setsid timeout -s KILL "$KAFKA_MAX_LIFETIME" "${JAVA_COMMAND[@]}" kafka.Kafka "$dir/server.properties" \
    >>"$dir/broker.log" 2>&1 &
  echo $! >"$dir/broker.pid"
  local waited=0
  until grep -q 'Kafka Server started' "$dir/broker.log"; do
    if ! pid_alive "$dir"; then tail -n 40 "$dir/broker.log" >&2; die "the broker exited while starting"; fi
    if ((waited >= READY_TIMEOUT * 10)); then
      tail -n 40 "$dir/broker.log" >&2
      stop "$dir"
      die "the broker was not ready after ${READY_TIMEOUT}s"
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  echo "==> kafka $KAFKA_VERSION ready at $(bootstrap "$dir") after $((waited / 10)).$((waited % 10))s"
}

stop() {
  local dir=$1 pid waited=0
  [[ -f $dir/broker.pid ]] || return 0
  pid=$(cat "$dir/broker.pid")
  # The pid is timeout(1)'s: TERM reaches the JVM through it, KILL of its group ends both.
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && ((waited < 200)); do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
      echo "kafka-broker: no exit 20 s after SIGTERM: SIGKILL" >&2
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$dir/broker.pid"
}

bootstrap() {
  local broker_port controller_port
  read -r broker_port controller_port <"$1/ports"
  echo "127.0.0.1:$broker_port"
}

[[ $# -eq 2 ]] || die "usage: $0 fetch|start|stop|restart|bootstrap DIR"
mkdir -p "$2"
DIR=$(cd "$2" && pwd)
case $1 in
  fetch) fetch ;;
  start) start "$DIR" ;;
  stop) stop "$DIR" ;;
  restart) stop "$DIR"; start "$DIR" ;;
  bootstrap) bootstrap "$DIR" ;;
  *) die "unknown command: $1" ;;
esac
