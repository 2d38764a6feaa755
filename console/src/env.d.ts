/** Vite bundles the styles a module imports. */
declare module '*.css';
