// Friendly JS layer over the Embind functions (appended with --post-js). It only converts between
// objects and JSON text: no physics here. Every call returns a value; none throws.
Module['evaluateObject'] = function (scenario, options) {
  return JSON.parse(Module['evaluate'](typeof scenario === 'string' ? scenario : JSON.stringify(scenario),
                                       JSON.stringify(options || {})));
};
Module['validateObject'] = function (scenario, lang) {
  return JSON.parse(Module['validate'](typeof scenario === 'string' ? scenario : JSON.stringify(scenario), lang || 'en'));
};
Module['defaultScenarioObject'] = function () { return JSON.parse(Module['defaultScenario']()); };
Module['catalogObject'] = function (lang) { return JSON.parse(Module['catalog'](lang || 'en')); };
