// The animation page of mbs: reads the embedded data (#mbs-data), builds the scene with
// three.js (global THREE), and plays the body poses with plots beside the view.
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("mbs-data").textContent);

  // ---- data ------------------------------------------------------------------------
  function f32(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float32Array(bytes.buffer);
  }
  var times = f32(data.t);
  var n = times.length;
  var nb = data.bodies.length;
  var poses = f32(data.poses); // n × nb × (x, y, z, qx, qy, qz, qw)
  var t0 = times[0], t1 = times[n - 1];
  var size = data.size;

  // ---- scene -----------------------------------------------------------------------
  var view = document.getElementById("view");
  var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.appendChild(renderer.domElement);
  var scene = new THREE.Scene();
  scene.background = new THREE.Color(0xeef0f3);
  var up = new THREE.Vector3(data.up[0], data.up[1], data.up[2]);
  var centre = new THREE.Vector3(data.centre[0], data.centre[1], data.centre[2]);
  var camera = new THREE.PerspectiveCamera(40, 1, size / 1000, size * 100);
  camera.up.copy(up);
  var viewDir = new THREE.Vector3(data.view[0], data.view[1], data.view[2]);
  // Place the camera so that a sphere holding the whole motion fits the view (in the
  // narrower of the two fields of view); kept until the user moves the camera.
  var userMoved = false;
  function frameAll() {
    var vfov = camera.fov * Math.PI / 180;
    var hfov = 2 * Math.atan(Math.tan(vfov / 2) * camera.aspect);
    var d = 0.5 * size / Math.sin(0.5 * Math.min(vfov, hfov));
    camera.position.copy(centre).addScaledVector(viewDir, d);
    camera.lookAt(centre);
  }

  scene.add(new THREE.HemisphereLight(0xffffff, 0x666670, 1.6));
  var sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.copy(centre).addScaledVector(viewDir, 2 * size).addScaledVector(up, 2 * size);
  scene.add(sun);

  // a grid on the floor, perpendicular to "up"
  function nice(x) {
    var e = Math.pow(10, Math.floor(Math.log10(x))), f = x / e;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
  }
  var grid = new THREE.GridHelper(nice(1.5 * size), 10, 0xb0b4bc, 0xd4d7dd);
  grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
  grid.position.copy(centre).addScaledVector(up, data.floor - centre.dot(up) - 0.02 * size);
  scene.add(grid);

  var palette = [0x4a78b5, 0xd0603a, 0x4f9d57, 0x8e63b5, 0xc9a227, 0x3aa0b0, 0xb5486b, 0x7a7a7a];
  function material(color) {
    return new THREE.MeshStandardMaterial({ color: color, roughness: 0.55, metalness: 0.1 });
  }
  var markerMaterial = material(0x333333);
  var groundMaterial = material(0x666b73);
  var zAxis = new THREE.Vector3(0, 0, 1), yAxis = new THREE.Vector3(0, 1, 0);

  function u32(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Uint32Array(bytes.buffer);
  }
  // triangle meshes (shared by the shapes that draw the same file at the same scale),
  // shaded flat: their vertices are shared across sharp edges
  var meshGeometries = (data.meshes || []).map(function (m) {
    return m.parts.map(function (p) {
      var g = new THREE.BufferGeometry();
      // (the vendored build exports Float32BufferAttribute; setIndex makes the index
      // attribute of a plain array)
      g.setAttribute("position", new THREE.Float32BufferAttribute(f32(p.positions), 3));
      g.setIndex(Array.from(u32(p.indices)));
      return { geometry: g, color: p.color };
    });
  });
  function meshGroup(s, color) {
    var group = new THREE.Group();
    meshGeometries[s.mesh].forEach(function (part) {
      // the file's material colour, else the shape's, else the body's
      var c = part.color ? new THREE.Color(part.color) : s.color ? new THREE.Color(s.color) : color;
      var mat = new THREE.MeshStandardMaterial({ color: c, roughness: 0.55, metalness: 0.1, flatShading: true, side: 2 /* THREE.DoubleSide */ });
      group.add(new THREE.Mesh(part.geometry, mat));
    });
    return group;
  }

  function shapeMesh(s, color) {
    var g;
    if (s.kind === "mesh") {
      var group = meshGroup(s, color);
      group.position.set(s.position[0], s.position[1], s.position[2]);
      group.quaternion.set(s.quaternion[0], s.quaternion[1], s.quaternion[2], s.quaternion[3]);
      return group;
    }
    if (s.kind === "box") g = new THREE.BoxGeometry(2 * s.dims[0], 2 * s.dims[1], 2 * s.dims[2]);
    else if (s.kind === "sphere") g = new THREE.SphereGeometry(s.dims[0], 32, 16);
    else if (s.kind === "cylinder") g = new THREE.CylinderGeometry(s.dims[0], s.dims[0], s.dims[1], 32).rotateX(Math.PI / 2);
    else if (s.kind === "capsule") g = new THREE.CapsuleGeometry(s.dims[0], s.dims[1], 8, 24).rotateX(Math.PI / 2);
    else throw new Error("unknown shape kind " + s.kind);
    var m = new THREE.Mesh(g, material(s.color ? new THREE.Color(s.color) : color));
    m.position.set(s.position[0], s.position[1], s.position[2]);
    m.quaternion.set(s.quaternion[0], s.quaternion[1], s.quaternion[2], s.quaternion[3]);
    return m;
  }

  // a rod (cylinder) from a to b, in the parent's frame
  function stick(a, b, radius, mat) {
    var d = new THREE.Vector3().subVectors(b, a);
    var len = d.length();
    var m = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, Math.max(len, 1e-9), 12), mat);
    m.position.copy(a).addScaledVector(d, 0.5);
    if (len > 0) m.quaternion.setFromUnitVectors(yAxis, d.normalize());
    return m;
  }

  var bodies = data.bodies.map(function (b, i) {
    var group = new THREE.Group();
    var color = new THREE.Color(palette[i % palette.length]);
    var bodyMaterial = material(color);
    b.shapes.forEach(function (s) { group.add(shapeMesh(s, color)); });
    var origin = new THREE.Vector3();
    b.markers.forEach(function (p) {
      var v = new THREE.Vector3(p[0], p[1], p[2]);
      if (b.shapes.length === 0) group.add(stick(origin, v, 0.008 * size, bodyMaterial));
      var dot = new THREE.Mesh(new THREE.SphereGeometry(0.011 * size, 16, 8), markerMaterial);
      dot.position.copy(v);
      group.add(dot);
    });
    if (b.shapes.length === 0) {
      var com = new THREE.Mesh(new THREE.SphereGeometry(0.02 * size, 24, 12), bodyMaterial);
      group.add(com);
    }
    scene.add(group);
    return group;
  });

  data.ground.forEach(function (g) {
    var m = new THREE.Mesh(new THREE.BoxGeometry(0.03 * size, 0.03 * size, 0.03 * size), groundMaterial);
    m.position.set(g.position[0], g.position[1], g.position[2]);
    scene.add(m);
    var z = new THREE.Vector3(g.z[0], g.z[1], g.z[2]);
    var a = m.position.clone().addScaledVector(z, -0.04 * size);
    var b = m.position.clone().addScaledVector(z, 0.04 * size);
    scene.add(stick(a, b, 0.004 * size, groundMaterial));
  });

  var controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();

  // ---- poses at time t (linear interpolation, quaternion slerp) ----------------------
  var qa = new THREE.Quaternion(), qb = new THREE.Quaternion();
  function sampleIndex(t) {
    var lo = 0, hi = n - 1;
    if (t <= times[0]) return 0;
    if (t >= times[hi]) return hi;
    while (hi - lo > 1) {
      var mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid;
    }
    return lo;
  }
  function setPoses(t) {
    var k = sampleIndex(t);
    var k2 = Math.min(k + 1, n - 1);
    var span = times[k2] - times[k];
    var a = span > 0 ? Math.min(Math.max((t - times[k]) / span, 0), 1) : 0;
    for (var i = 0; i < nb; i++) {
      var p = (k * nb + i) * 7, q = (k2 * nb + i) * 7;
      var g = bodies[i];
      g.position.set(
        poses[p] + a * (poses[q] - poses[p]),
        poses[p + 1] + a * (poses[q + 1] - poses[p + 1]),
        poses[p + 2] + a * (poses[q + 2] - poses[p + 2]));
      qa.set(poses[p + 3], poses[p + 4], poses[p + 5], poses[p + 6]);
      qb.set(poses[q + 3], poses[q + 4], poses[q + 5], poses[q + 6]);
      g.quaternion.slerpQuaternions(qa, qb, a);
      g.visible = isFinite(poses[p]) && isFinite(poses[q]);
    }
  }

  // ---- plots ---------------------------------------------------------------------------
  // Ranges, ticks, labels, colours and markers come with the data (computed by mbs, as
  // for its PNG/SVG plots); the legend is a row above the data, never over it.
  var plotBox = document.getElementById("plots");
  var timeTicks = data.time_ticks;
  var plots = data.plots.map(function (p) {
    var canvas = document.createElement("canvas");
    plotBox.appendChild(canvas);
    var series = p.series.map(function (s) {
      return { label: s.label, v: f32(s.values), color: s.color, marker: s.marker, markers: s.markers };
    });
    var lo = p.log ? Math.log10(p.lo) : p.lo, hi = p.log ? Math.log10(p.hi) : p.hi;
    return { title: p.title, log: p.log, series: series, lo: lo, hi: hi, ticks: p.ticks, note: p.note, canvas: canvas, image: null };
  });
  function drawMarker(ctx, kind, x, y) {
    ctx.beginPath();
    if (kind === "circle") { ctx.arc(x, y, 3, 0, 2 * Math.PI); ctx.fill(); return; }
    if (kind === "triangle") { ctx.moveTo(x, y - 4); ctx.lineTo(x + 4, y + 3); ctx.lineTo(x - 4, y + 3); ctx.closePath(); }
    else if (kind === "square") ctx.rect(x - 3, y - 3, 6, 6);
    else if (kind === "cross") { ctx.moveTo(x - 3, y - 3); ctx.lineTo(x + 3, y + 3); ctx.moveTo(x + 3, y - 3); ctx.lineTo(x - 3, y + 3); }
    else if (kind === "diamond") { ctx.moveTo(x, y - 4); ctx.lineTo(x + 4, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 4, y); ctx.closePath(); }
    else ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
    ctx.stroke();
  }
  // legend entries laid out in rows of the canvas width; returns the rows' height
  function layoutLegend(ctx, p, x0, w) {
    var x = x0, row = 0, items = [];
    ctx.font = "11px sans-serif";
    p.series.forEach(function (s) {
      var width = 22 + ctx.measureText(s.label).width + 12;
      if (x > x0 && x + width > x0 + w) { x = x0; row++; }
      items.push({ s: s, x: x, row: row });
      x += width;
    });
    p.legend = items;
    return p.series.length > 1 ? 14 * (row + 1) : 0;
  }
  function drawPlot(p) {
    var c = p.canvas, dpr = window.devicePixelRatio || 1;
    var w = c.clientWidth, h = c.clientHeight;
    c.width = Math.round(w * dpr); c.height = Math.round(h * dpr);
    var ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, w, h);
    var left = 8 + p.ticks.reduce(function (m, t) { ctx.font = "11px sans-serif"; return Math.max(m, ctx.measureText(t.label).width); }, 0);
    left = Math.max(left + 6, ctx.measureText("t [s]").width + 18);
    var legendHeight = layoutLegend(ctx, p, left, w - left - 8);
    var x0 = left, x1 = w - 10, y1 = 20 + legendHeight, y0 = h - 18;
    ctx.fillStyle = "#222"; ctx.font = "12px sans-serif";
    ctx.textAlign = "left"; ctx.fillText(p.title, 4, 13);
    var sx = function (t) { return x0 + (x1 - x0) * (t1 > t0 ? (t - t0) / (t1 - t0) : 0); };
    var sy = function (v) { return y0 - (y0 - y1) * (v - p.lo) / (p.hi - p.lo); };
    ctx.font = "11px sans-serif";
    ctx.strokeStyle = "#e4e4e4"; ctx.lineWidth = 1; ctx.fillStyle = "#333";
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    p.ticks.forEach(function (t) {
      var Y = sy(p.log ? Math.log10(t.value) : t.value);
      ctx.beginPath(); ctx.moveTo(x0, Y); ctx.lineTo(x1, Y); ctx.stroke();
      ctx.fillText(t.label, x0 - 4, Y);
    });
    ctx.textAlign = "center"; ctx.textBaseline = "alphabetic";
    timeTicks.forEach(function (t) {
      var X = sx(t.value);
      ctx.beginPath(); ctx.moveTo(X, y0); ctx.lineTo(X, y1); ctx.stroke();
      ctx.fillText(t.label, X, h - 5);
    });
    ctx.textAlign = "left"; ctx.fillText("t [s]", 4, h - 5);
    ctx.strokeStyle = "#999";
    ctx.strokeRect(x0, y1, x1 - x0, y0 - y1);
    if (p.note) {
      ctx.fillStyle = "#555"; ctx.font = "13px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(p.note, (x0 + x1) / 2, (y0 + y1) / 2);
      ctx.textBaseline = "alphabetic";
    }
    p.series.forEach(function (s) {
      if (p.note) return;
      ctx.strokeStyle = s.color; ctx.fillStyle = s.color; ctx.lineWidth = 1.5;
      ctx.beginPath();
      var pen = false;
      for (var k = 0; k < n; k++) {
        var v = s.v[k];
        if (!isFinite(v) || (p.log && v <= 0)) { pen = false; continue; }
        var X = sx(times[k]), Y = sy(p.log ? Math.log10(v) : v);
        if (pen) ctx.lineTo(X, Y); else ctx.moveTo(X, Y);
        pen = true;
      }
      ctx.stroke();
      ctx.lineWidth = 1.2;
      s.markers.forEach(function (k) {
        var v = s.v[k];
        if (k < n && isFinite(v) && !(p.log && v <= 0)) drawMarker(ctx, s.marker, sx(times[k]), sy(p.log ? Math.log10(v) : v));
      });
    });
    if (p.series.length > 1) {
      ctx.font = "11px sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "middle";
      p.legend.forEach(function (it) {
        var y = 20 + 7 + 14 * it.row;
        ctx.strokeStyle = it.s.color; ctx.fillStyle = it.s.color; ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(it.x, y); ctx.lineTo(it.x + 18, y); ctx.stroke();
        ctx.lineWidth = 1.2; drawMarker(ctx, it.s.marker, it.x + 9, y);
        ctx.fillStyle = "#222"; ctx.fillText(it.s.label, it.x + 22, y);
      });
      ctx.textBaseline = "alphabetic";
    }
    p.image = ctx.getImageData(0, 0, c.width, c.height);
    p.sx = sx; p.y0 = y0; p.y1 = y1;
  }
  function drawCursor(p, t) {
    var ctx = p.canvas.getContext("2d"), dpr = window.devicePixelRatio || 1;
    if (!p.image) drawPlot(p);
    ctx.putImageData(p.image, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    var X = p.sx(t);
    ctx.strokeStyle = "rgba(200,0,0,0.8)"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(X, p.y0); ctx.lineTo(X, p.y1); ctx.stroke();
  }

  // ---- controls and playback -------------------------------------------------------------
  var slider = document.getElementById("time");
  var clock = document.getElementById("clock");
  var playButton = document.getElementById("play");
  var speedSelect = document.getElementById("speed");
  slider.min = t0; slider.max = t1;
  document.getElementById("model-name").textContent = data.model;
  document.getElementById("meta").innerHTML = "";
  [data.method + " with " + data.integrator, n + " samples, t = " + t0 + " … " + t1 + " s"].forEach(function (line) {
    var d = document.createElement("div"); d.textContent = line;
    document.getElementById("meta").appendChild(d);
  });
  (data.notes || []).forEach(function (line) {
    var d = document.createElement("div"); d.className = "note";
    d.textContent = "note: " + line;
    document.getElementById("meta").appendChild(d);
  });
  if (data.failure) {
    var f = document.createElement("div"); f.className = "failure";
    f.textContent = "run failed: " + data.failure;
    document.getElementById("meta").appendChild(f);
  }

  var state = { t: t0, playing: true, speed: 1, last: null };
  function resize() {
    var w = Math.max(view.clientWidth, 1), h = Math.max(view.clientHeight, 1);
    renderer.setSize(w, h, false);
    renderer.domElement.style.width = w + "px";
    renderer.domElement.style.height = h + "px";
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    if (!userMoved) { frameAll(); controls.update(); }
    plots.forEach(function (p) { p.image = null; });
  }
  function draw() {
    setPoses(state.t);
    renderer.render(scene, camera);
    slider.value = state.t;
    clock.textContent = "t = " + state.t.toFixed(3) + " s";
    plots.forEach(function (p) { drawCursor(p, state.t); });
  }
  function setPlaying(on) {
    state.playing = on;
    state.last = null;
    playButton.textContent = on ? "pause" : "play";
  }
  function applyFragment() {
    var h = window.location.hash.replace(/^#/, "");
    if (!h) return;
    h.split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv[0] === "t" && isFinite(parseFloat(kv[1]))) state.t = Math.min(Math.max(parseFloat(kv[1]), t0), t1);
      if (kv[0] === "paused") setPlaying(false);
      if (kv[0] === "speed" && parseFloat(kv[1]) > 0) {
        state.speed = parseFloat(kv[1]);
        speedSelect.value = String(state.speed);
      }
    });
  }
  playButton.addEventListener("click", function () { setPlaying(!state.playing); });
  slider.addEventListener("input", function () { state.t = parseFloat(slider.value); setPlaying(false); draw(); });
  speedSelect.addEventListener("change", function () { state.speed = parseFloat(speedSelect.value); });
  window.addEventListener("keydown", function (e) {
    if (e.code === "Space" && e.target === document.body) { e.preventDefault(); setPlaying(!state.playing); }
  });
  window.addEventListener("resize", function () { resize(); draw(); });
  window.addEventListener("hashchange", function () { applyFragment(); draw(); });
  controls.addEventListener("start", function () { userMoved = true; });
  controls.addEventListener("change", function () { if (!state.playing) renderer.render(scene, camera); });

  function frame(now) {
    if (state.playing) {
      if (state.last !== null) {
        state.t += state.speed * (now - state.last) / 1000;
        if (state.t > t1) state.t = t0 + (t1 > t0 ? (state.t - t0) % (t1 - t0) : 0);
      }
      state.last = now;
      draw();
    }
    requestAnimationFrame(frame);
  }

  setPlaying(true);
  applyFragment();
  resize();
  draw();
  document.body.setAttribute("data-ready", "1");
  requestAnimationFrame(frame);
})();
