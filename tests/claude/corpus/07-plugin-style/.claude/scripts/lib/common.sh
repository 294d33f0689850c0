# shared helpers of the plugin
protected_re='(^|/)(migrations|vendor)/'
