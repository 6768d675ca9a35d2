export {
  AmbientLight, AxesHelper, BoxGeometry, BufferGeometry, CapsuleGeometry, Color,
  CylinderGeometry, DirectionalLight, Float32BufferAttribute, GridHelper, Group,
  HemisphereLight, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial,
  PerspectiveCamera, Quaternion, Scene, SphereGeometry, Vector3, WebGLRenderer, Box3,
} from 'three';
export { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
