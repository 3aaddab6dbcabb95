export * from './localPlane.js';
export * from './write.js';
export {
  isAgOpenGpsFolder,
  readBoundary,
  readBoundaryTxt,
  readFieldFolder,
  readFieldFolders,
  readFieldTxt,
} from './read.js';
export type { ReadFenceRing } from './read.js';
