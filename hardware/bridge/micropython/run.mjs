// Boots the reader bridge firmware on MicroPython's WebAssembly port, the way a Pico boots it:
// the firmware files are copied into MicroPython's own file system and `import main` runs them.
// The `machine` and `time` modules the firmware imports are the stand-ins beside this file; they
// reach the RC522 emulator, a CPython process (hardware/emulator/pico.py), over this process's
// stdin and stdout, one line per message:
//   to the host:   O <hex bytes>      a line the firmware wrote on its USB serial (stdout)
//                  P <pin> <0|1>      a GPIO level change          T <us>   a sleep
//                  D <ms>             a watchdog was armed         W        the watchdog was fed
//                  S <hex>            an SPI transfer: the host answers with the received bytes in hex
//                  I <pin>            an input pin's level: the host answers 0 or 1
//                  C                  time.ticks_us(): the host answers the modelled time in µs
//                  U                  can USB serial take bytes now (select POLLOUT): the host answers 0 or 1
//                  E <hex>            MicroPython stopped with this traceback (main.py returned or raised)
// Usage: node run.mjs <micropython.mjs> <file.py>...   (the files to put on the board's flash)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [mpModule, ...files] = process.argv.slice(2);
const { loadMicroPython } = await import(mpModule);
const here = path.dirname(fileURLToPath(import.meta.url));

// Pin changes, sleeps and watchdog calls need no answer: they wait here and go with the next line that
// does (or the next output line), in order, in one write.
let pending = [];
function send(line) {
  pending.push(line);
  const data = Buffer.from(pending.join("\n") + "\n");
  pending = [];
  for (let off = 0; off < data.length; ) {
    try { off += fs.writeSync(1, data, off); } catch (e) { if (e.code !== "EAGAIN") throw e; }
  }
}

let inbuf = Buffer.alloc(0);
function receiveLine() {
  const chunk = Buffer.alloc(65536);
  for (;;) {
    const nl = inbuf.indexOf(10);
    if (nl >= 0) {
      const line = inbuf.subarray(0, nl).toString();
      inbuf = inbuf.subarray(nl + 1);
      return line;
    }
    let n = 0;
    try { n = fs.readSync(0, chunk, 0, chunk.length, null); } catch (e) { if (e.code === "EAGAIN") continue; throw e; }
    if (n === 0) process.exit(0);          // the host went away
    inbuf = Buffer.concat([inbuf, chunk.subarray(0, n)]);
  }
}

let out = [];
function stdout(bytes) {
  for (const b of bytes) {
    out.push(b);
    if (b === 10) { send("O " + Buffer.from(out).toString("hex")); out = []; }
  }
}

globalThis.picoSend = (line) => { pending.push(line); };
globalThis.picoCall = (line) => { send(line); return receiveLine(); };

const mp = await loadMicroPython({ stdout, stderr: stdout, linebuffer: false });
mp.FS.mkdir("/flash");
mp.FS.mkdir("/shim");
for (const f of files) mp.FS.writeFile("/flash/" + path.basename(f), fs.readFileSync(f));
for (const f of ["machine.py", "time.py", "select.py"]) mp.FS.writeFile("/shim/" + f, fs.readFileSync(path.join(here, f)));
let trace = "main.py returned";
try {
  mp.runPython("import sys, os\nsys.path[:0] = ['/shim', '/flash']\nos.chdir('/flash')\nimport main\n");
} catch (e) {
  trace = String(e && e.message ? e.message : e);
}
send("E " + Buffer.from(trace).toString("hex"));
