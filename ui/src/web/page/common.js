// What Vedette's pages share: terrain colours (the app's) and making SVG elements.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const TERRAIN = {
  wood: "#286e32", rough: "#8c7850", "very-rough": "#8c7850", "extremely-rough": "#8c7850",
  obstacle: "#aa9678", building: "#966450", hill: "#788c46", impassable: "#5a5a5a",
  river: "#4678c8", road: "#aa966e", decorative: "#646464",
};
const $ = (id) => document.getElementById(id);

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
